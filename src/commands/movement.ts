/**
 * Movement commands: walking to a player, a position, a block or a mob; following, moving away,
 * staying put, looking; and the named places the agent walks back to.
 */
import type { Bot } from 'mineflayer';
import { defineCommand, type AgentControl, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { skillCommand } from './skill-commands.ts';
import type { PlaceStore } from '../game/places.ts';
import { captureView, type ViewImage } from '../skills/camera.ts';
import { goToCoordinatesSkill, goToPlayerSkill, moveAwaySkill, searchForBlockSkill, searchForEntitySkill } from '../skills/index.ts';
import { followPlayer, goToRememberedPlace, lookAtPlayer, lookAtPosition, rememberHere, stay } from '../skills/navigation.ts';
import { done, type Outcome, SkillError } from '../skills/outcome.ts';

/** `!stay(n)`'s time bound beyond its n seconds, so that it ends by itself rather than by the bound (ms). */
const STAY_MARGIN_MS = 5_000;

/**
 * The outcome of turning to look, its text followed, with vision on (`allow_vision`), by what the
 * bot sees now: its view rendered headlessly and described by the vision model, then the block at
 * the centre of the view, as the reference answers. A renderer or model that fails is reported in
 * the text, not thrown: the bot did turn (the outcome stays `ok`).
 */
async function withView(bot: Bot, agent: AgentControl, signal: AbortSignal, outcome: Outcome): Promise<Outcome> {
  const looked = outcome.text;
  const vision = agent.vision?.();
  if (!vision) return outcome;
  const seen = (text: string): Outcome => ({ ...outcome, text });
  let image: ViewImage;
  try {
    image = await captureView(bot, {}, signal);
  } catch (err) {
    if (signal.aborted) throw err;
    return seen(`${looked}\nCannot see: ${(err as Error).message}`);
  }
  let analysis: string;
  try {
    analysis = (
      await vision.model.complete({
        system: vision.prompt,
        turns: [...vision.context, { role: 'user', content: `${looked} Describe what you see.` }],
        image: { mediaType: 'image/png', data: image.png.toString('base64') },
        purpose: 'vision',
        signal,
      })
    ).trim();
  } catch (err) {
    if (signal.aborted) throw err;
    return seen(`${looked}\nThe vision model failed: ${(err as Error).message}`);
  }
  const centre = bot.blockAtCursor(128);
  const block = centre
    ? `Block at the centre of the view: ${centre.name} at (${centre.position.x}, ${centre.position.y}, ${centre.position.z}).`
    : 'No block at the centre of the view.';
  return seen(`${looked}\nImage analysis: "${analysis}"\n${block}`);
}

/** The agent's saved places; throws `unavailable` when the agent keeps none (the command reports the error). */
function placesOf(agent: AgentControl): PlaceStore {
  if (!agent.places) throw new SkillError('unavailable', 'This agent cannot remember places.');
  return agent.places;
}

const followPlayerCommand = defineCommand({
  name: '!followPlayer',
  kind: 'action',
  description: 'Follow a player until stopped.',
  params: {
    player_name: { type: 'string', description: 'player', example: 'Steve' },
    follow_dist: { type: 'float', description: 'blocks away', domain: [0, Infinity], example: 3 },
  },
  timeBound: () => 'until stopped',
  async perform({ bot, signal }, { player_name, follow_dist }) {
    return followPlayer(bot, player_name, follow_dist, signal);
  },
});

const stayCommand = defineCommand({
  name: '!stay',
  kind: 'action',
  description: 'Stand still, modes paused (-1: until stopped).',
  params: {
    // The reference names this parameter `type`; tool calls use the name, so it stays.
    type: { type: 'int', description: 'seconds; -1 = until stopped', domain: [-1, Infinity], example: 30 },
  },
  timeBound: ({ type: seconds }) => (seconds < 0 ? 'until stopped' : seconds * 1000 + STAY_MARGIN_MS),
  async perform({ bot, agent, signal }, { type: seconds }) {
    const modes = agent.modes;
    return stay(bot, seconds, signal, modes?.pause ? () => modes.pause!() : undefined);
  },
});

const lookAtPlayerCommand = defineCommand({
  name: '!lookAtPlayer',
  kind: 'action',
  description: 'Look "at" or "with" a player; describe the view.',
  params: {
    player_name: { type: 'string', description: 'player', example: 'Steve' },
    direction: { type: 'string', description: '"at" or "with"', example: 'at' },
  },
  async perform({ bot, agent, signal }, { player_name, direction }) {
    return withView(bot, agent, signal, await lookAtPlayer(bot, player_name, direction));
  },
});

const lookAtPositionCommand = defineCommand({
  name: '!lookAtPosition',
  kind: 'action',
  description: 'Look at a position; describe the view.',
  params: {
    x: { type: 'int', description: '' },
    y: { type: 'int', description: '' },
    z: { type: 'int', description: '' },
  },
  async perform({ bot, agent, signal }, { x, y, z }) {
    return withView(bot, agent, signal, await lookAtPosition(bot, x, y, z));
  },
});

const rememberHereCommand = defineCommand({
  name: '!rememberHere',
  kind: 'action',
  alongside: true,
  description: 'Name your position.',
  params: {
    name: { type: 'string', description: 'place name', example: 'home' },
  },
  async perform({ bot, agent }, { name }) {
    return rememberHere(bot, placesOf(agent), name);
  },
});

const goToRememberedPlaceCommand = defineCommand({
  name: '!goToRememberedPlace',
  kind: 'action',
  description: 'Walk to a saved place.',
  params: {
    name: { type: 'string', description: 'place name', example: 'home' },
  },
  async perform({ bot, agent, signal }, { name }) {
    return goToRememberedPlace(bot, placesOf(agent), name, signal);
  },
});

const savedPlacesCommand = defineCommand({
  name: '!savedPlaces',
  kind: 'query',
  description: 'Places you remembered.',
  params: {},
  async perform({ agent }) {
    const places = placesOf(agent).list();
    if (places.length === 0) return done('No saved places. Use !rememberHere("name").');
    return done(
      'Saved places:\n' +
        places.map(([n, p]) => `${n}: (${p.x}, ${p.y}, ${p.z})${p.dimension !== 'overworld' ? ` in ${p.dimension}` : ''}`).join('\n'),
    );
  },
});

/**
 * `!goToPlayer`, `!goToCoordinates`, `!searchForBlock`, `!searchForEntity`, `!followPlayer`,
 * `!moveAway`, `!stay`, `!lookAtPlayer`, `!lookAtPosition`, `!rememberHere`,
 * `!goToRememberedPlace` and the query `!savedPlaces`; the first five are skills' commands (see
 * `src/skills/index.ts`). The place commands answer "This agent cannot remember places."
 * (`unavailable`) for an agent without {@link AgentControl.places}.
 */
export const movementCommands: CommandDef<CommandContext>[] = [
  skillCommand(goToPlayerSkill, { kind: 'action' }),
  skillCommand(goToCoordinatesSkill, { kind: 'action' }),
  skillCommand(searchForBlockSkill, { kind: 'action' }),
  skillCommand(searchForEntitySkill, { kind: 'action' }),
  followPlayerCommand,
  skillCommand(moveAwaySkill, { kind: 'action' }),
  stayCommand,
  lookAtPlayerCommand,
  lookAtPositionCommand,
  rememberHereCommand,
  goToRememberedPlaceCommand,
  savedPlacesCommand,
];
