/** Plain requests a player makes of a bot with no model, understood one-to-one as commands. */
import { describe, expect, test } from 'vitest';
import { gameData } from '../../src/game/data.ts';
import { nameResolver } from '../../src/game/names.ts';
import { OFFLINE_ANSWER, type Observation, OraclePolicy } from '../../src/oracle/policy.ts';
import { understandRequest } from '../../src/oracle/requests.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const data = gameData(TEST_VERSION);
const names = nameResolver(TEST_VERSION);
const understand = (text: string) => understandRequest(text, 'Steve', 'Andy', data, names);

describe('plain requests', () => {
  test.each([
    ['come here', '!goToPlayer("Steve", 2)'],
    ['Andy, come to me please', '!goToPlayer("Steve", 2)'],
    ['hey Andy come', '!goToPlayer("Steve", 2)'],
    ['follow me', '!followPlayer("Steve", 3)'],
    ['Andy follow me!', '!followPlayer("Steve", 3)'],
    ['stop', '!stop'],
    ['Andy, stop!', '!stop'],
    ['what do you have?', '!inventory'],
    ['inventory', '!inventory'],
    ['Andy, collect 3 oak logs', '!collectBlocks("oak_log", 3)'],
    ['collect 3 oak logs', '!collectBlocks("oak_log", 3)'],
    ['get oak_log', '!collectBlocks("oak_log", 1)'],
    ['mine 5 stone please', '!collectBlocks("stone", 5)'],
    ['chop 4 birch logs', '!collectBlocks("birch_log", 4)'],
    ['gather some sand', '!collectBlocks("sand", 1)'],
    ['craft a wooden pickaxe', '!craftRecipe("wooden_pickaxe", 1)'],
    ['Andy, can you craft 8 sticks', '!craftRecipe("stick", 2)'],
    ['make a crafting table', '!craftRecipe("crafting_table", 1)'],
    ['give me 2 bread', '!givePlayer("Steve", "bread", 2)'],
    ['hand me a torch', '!givePlayer("Steve", "torch", 1)'],
  ])('%j → %s', (text, command) => {
    expect(understand(text)).toBe(command);
  });

  test.each([
    'tell me a story',
    'collect 3 unicorn horns',
    'craft happiness',
    'give me a hug',
    'come on, that was funny',
    'where is the village?',
  ])('%j is not one of them', (text) => {
    expect(understand(text)).toBeUndefined();
  });

  /** What the policy observes with no task: `records` since its last decision. */
  const observation = (records: Observation['records']): Observation => ({
    name: 'Andy',
    inventory: {},
    targets: undefined,
    blueprint: undefined,
    canUse: () => true,
    partner: undefined,
    blocks: [],
    mobs: [],
    records,
  });

  test("the policy with no task answers a player's request with its command, and anything else with the offline answer", () => {
    const decide = (text: string) =>
      new OraclePolicy(data).decide(observation([{ kind: 'message', message: { from: 'Steve', text, channel: 'public' }, seq: 1, t: 0 }]));
    expect(decide('Andy, collect 3 oak logs')).toBe('!collectBlocks("oak_log", 3)');
    expect(decide('Andy, how are you?')).toBe(OFFLINE_ANSWER);
  });

  test('once the command has run, the policy tells the player what it did (a command named in the report is not run); a newer request comes first', () => {
    const policy = new OraclePolicy(data);
    const request = {
      kind: 'message',
      message: { from: 'Steve', text: 'Andy, craft a wooden pickaxe', channel: 'public' },
      seq: 1,
      t: 0,
    } as const;
    expect(policy.decide(observation([request]))).toBe('!craftRecipe("wooden_pickaxe", 1)');
    const report = {
      kind: 'outcome',
      by: 'model',
      outcome: {
        ok: false,
        code: 'missing_items',
        text: 'You need 3 oak_planks; make them with !craftRecipe("oak_planks", 1).',
        command: '!craftRecipe',
        args: {},
      },
      seq: 2,
      t: 1,
    } as const;
    expect(policy.decide(observation([report]))).toBe('You need 3 oak_planks; make them with craftRecipe("oak_planks", 1).');
    const again = { ...request, message: { ...request.message, text: 'stop' }, seq: 3 };
    expect(policy.decide(observation([report, again]))).toBe('!stop');
  });

  test("a teammate's call to pass on what this bot picked up of a hand-over to a player is answered with what it holds of it", () => {
    // `npm start` (2026-11-28): Steve asked Andy for 2 oak logs; Jill, standing by, picked up the
    // throw, Andy asked her to give them to Steve, and she said nothing.
    const jill = (inventory: Observation['inventory'], records: Observation['records']) => ({
      ...observation(records),
      name: 'Jill',
      inventory,
    });
    const call = {
      kind: 'message',
      message: { from: 'Andy', text: 'Steve needs 2 oak_log. Please give what you have of it.', channel: 'bot' },
      seq: 1,
      t: 0,
    } as const;
    const policy = new OraclePolicy(data);
    expect(policy.decide(jill({ oak_log: 2 }, [call]))).toBe('!givePlayer("Steve", "oak_log", 2)');
    // Given: nothing more to give toward it.
    expect(policy.decide(jill({}, []))).toBe('');
    // Holding none of it: the call is let go.
    expect(new OraclePolicy(data).decide(jill({ dirt: 3 }, [call]))).toBe('');
  });
});
