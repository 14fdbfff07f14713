/**
 * The commands that act on the agent itself rather than the world: its modes (`!modes`,
 * `!setMode`, and `!stay` pausing them) and control (`!restart`, `!stfu`, `!clearChat`), run as
 * the product runs them (`startAgents`, the agent's registry, `Agent.execute`).
 */
import { describe, expect, test } from 'vitest';
import { waitUntil } from '../helpers/world.ts';
import { expectStopsWithin1s, outcome, run, useWorld } from './agent-world.ts';

const w = useWorld();

describe('modes and control', () => {
  test("!modes and !setMode go through the agent's modes, and !stay pauses them", async () => {
    const modes = w.andy.modes;
    const was = modes.isOn('hunting');
    modes.set('hunting', false);
    try {
      expect(await run(w.andy, '!modes')).toMatch(/^self_preservation: ON/m);
      expect(await outcome(w.andy, '!setMode("Hunting", on)')).toEqual({ ok: true, code: 'ok', text: 'Mode hunting is now on.' });
      expect(modes.isOn('hunting')).toBe(true);
      expect(await run(w.andy, '!modes')).toMatch(/^hunting: ON/m);
      expect(await run(w.andy, '!setMode("hunting", true)')).toBe('Mode hunting is already on.');
      expect(await outcome(w.andy, '!setMode("flying", true)')).toMatchObject({
        ok: false,
        code: 'invalid',
        text: expect.stringMatching(/^!setMode failed: No mode "flying". Modes: self_preservation, /),
      });
      // !stay pauses the modes for its duration and resumes them afterwards.
      const pending = run(w.andy, '!stay(5)');
      await waitUntil(() => modes.list().every((m) => m.paused), 'modes paused during !stay');
      await expectStopsWithin1s(w.andy, pending);
      expect(modes.list().some((m) => m.paused)).toBe(false);
    } finally {
      modes.set('hunting', was);
    }
  });

  test('!restart stops the goal, forgets the chat and resets the modes to the profile', async () => {
    w.andy.setGoal('collect 64 oak logs');
    w.andy.modes.set('cowardice', true); // off in the profile
    w.andy.receive({ from: 'system', channel: 'system', text: 'remember this' });
    await w.andy.idle();
    expect(await run(w.andy, '!restart')).toBe('Restarted.');
    expect(w.andy.selfPrompter.state).toBe('stopped');
    expect(w.andy.history.some((t) => t.content.includes('remember this'))).toBe(false);
    expect(w.andy.modes.isOn('cowardice')).toBe(false);
    expect(w.andy.currentAction()).toBeUndefined();
  });

  test('!stfu and !clearChat act on the agent', async () => {
    w.andy.receive({ from: 'system', channel: 'system', text: 'remember this' });
    await w.andy.idle();
    expect(w.andy.history.length).toBeGreaterThan(0);
    expect(await run(w.andy, '!clearChat')).toBe('Chat history cleared.');
    expect(w.andy.history).toHaveLength(0);
    expect(await run(w.andy, '!stfu')).toBe('Quiet now.');
  });
});
