/**
 * A fake command registry for the registry, parser and tool-schema tests: a small, realistic
 * command set over a fake context ({@link FakeCtx}) whose commands only log that they ran.
 */
import { CommandRegistry, defineCommand, defineCommandFor, type CommandDef } from '../../src/commands/registry.ts';
import { done } from '../../src/skills/outcome.ts';

export interface FakeCtx {
  log: string[];
}

const define = defineCommandFor<FakeCtx>();

export const collectBlocks = define({
  name: '!collectBlocks',
  kind: 'action',
  description: 'Collect the nearest blocks of a type.',
  params: {
    type: { type: 'BlockName', description: 'block to collect' },
    num: { type: 'int', description: 'how many', domain: [1, 1000] },
  },
  async perform(ctx, { type, num }) {
    // Compile-time check that args are typed: `type` is a string, `num` a number.
    const t: string = type;
    const n: number = num;
    ctx.log.push(`collect ${n} ${t}`);
    return done('ok');
  },
});

// Ctx inferred from the annotated first parameter.
export const stats = defineCommand({
  name: '!stats',
  kind: 'query',
  description: 'Your position, health, hunger and surroundings.',
  params: {},
  async perform(ctx: FakeCtx) {
    ctx.log.push('stats');
    return done('ok');
  },
});

const simple = (name: string, kind: 'query' | 'action', description: string): CommandDef<FakeCtx, Record<string, never>> =>
  define({
    name,
    kind,
    description,
    params: {},
    async perform() {
      return done('ok');
    },
  });

export const defs: CommandDef<FakeCtx>[] = [
  stats,
  simple('!inventory', 'query', 'Your items and armour.'),
  simple('!nearbyBlocks', 'query', 'Block types near you.'),
  simple('!craftable', 'query', 'Items you can craft now.'),
  simple('!entities', 'query', 'Players and mobs near you.'),
  simple('!stop', 'action', 'Stop the current action.'),
  simple('!endGoal', 'action', 'Drop the current goal.'),
  simple('!goToBed', 'action', 'Sleep in the nearest bed.'),
  define({
    name: '!goal',
    kind: 'action',
    description: 'Pursue a long-term goal until !endGoal.',
    params: { selfPrompt: { type: 'string', description: 'the goal' } },
    async perform() {
      return done('ok');
    },
  }),
  collectBlocks,
  define({
    name: '!craftRecipe',
    kind: 'action',
    description: 'Craft an item, using a nearby crafting table.',
    params: {
      recipe: { type: 'ItemName', description: 'item to craft' },
      num: { type: 'int', description: 'times to craft', domain: [1, 100] },
    },
    async perform() {
      return done('ok');
    },
  }),
  define({
    name: '!goToCoordinates',
    kind: 'action',
    description: 'Walk to a position.',
    params: {
      x: { type: 'float', description: 'x' },
      y: { type: 'float', description: 'y', domain: [-64, 320] },
      z: { type: 'float', description: 'z' },
      closeness: { type: 'float', description: 'stop within', domain: [0, Infinity] },
    },
    async perform() {
      return done('ok');
    },
  }),
  define({
    name: '!setMode',
    kind: 'action',
    description: 'Turn a mode on or off.',
    params: {
      mode: { type: 'string', description: 'mode name', example: 'self_defense' },
      on: { type: 'boolean', description: 'on or off' },
    },
    async perform(_ctx, { on }) {
      const b: boolean = on;
      return done(String(b));
    },
  }),
  define({
    name: '!startConversation',
    kind: 'action',
    description: 'Talk to another bot.',
    params: {
      player: { type: 'string', description: 'bot name' },
      message: { type: 'string', description: 'first message' },
    },
    async perform() {
      return done('ok');
    },
  }),
  define({
    name: '!stay',
    kind: 'action',
    description: 'Stay put, modes paused.',
    params: { seconds: { type: 'int', description: '-1 = forever', domain: [-1, 86400] } },
    async perform() {
      return done('ok');
    },
  }),
];

export const registry = new CommandRegistry<FakeCtx>(defs);
