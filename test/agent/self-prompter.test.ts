/** The goal loop's state machine against a scripted host (no server, no model). */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { SelfPrompter, type SelfPrompterHost } from '../../src/agent/self-prompter.ts';

function host(replies: boolean[]) {
  const prompts: string[] = [];
  const announced: string[] = [];
  const state = { idle: true, convo: false, changes: 0 };
  const h: SelfPrompterHost = {
    isIdle: () => state.idle,
    inConversation: () => state.convo,
    async prompt(text) {
      prompts.push(text);
      return replies.shift() ?? false;
    },
    announce: (text) => {
      announced.push(text);
    },
    changed: () => {
      state.changes++;
    },
  };
  return { h, prompts, announced, state };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('SelfPrompter', () => {
  test('prompts only after the idle delay, again after each idle event, and stops after 3 replies in a row without a command', async () => {
    vi.useFakeTimers();
    const { h, prompts, announced } = host([true, false, true, false, false, false, true]);
    const sp = new SelfPrompter(h, { idleMs: 2000 });
    expect(sp.start('collect 10 oak logs')).toContain('collect 10 oak logs');
    await vi.advanceTimersByTimeAsync(1999);
    expect(prompts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatch(/collect 10 oak logs.*must contain a command/);
    // Each cycle re-arms once the host is idle; a command resets the count.
    await vi.advanceTimersByTimeAsync(2000 * 10);
    expect(prompts).toHaveLength(6); // true, false, true, false, false, false -> stop
    expect(sp.state).toBe('stopped');
    expect(announced[0]).toMatch(/stopped working on my goal/i);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(prompts).toHaveLength(6);
  });

  test('busy() postpones the prompt; a host still busy when the delay ends is not prompted until the next idle()', async () => {
    vi.useFakeTimers();
    const { h, prompts, state } = host([true, true]);
    const sp = new SelfPrompter(h, { idleMs: 2000 });
    sp.start('dig');
    await vi.advanceTimersByTimeAsync(1500);
    sp.busy();
    state.idle = false;
    await vi.advanceTimersByTimeAsync(5000);
    expect(prompts).toHaveLength(0);
    state.idle = true;
    sp.idle();
    await vi.advanceTimersByTimeAsync(1999);
    expect(prompts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(prompts).toHaveLength(1);
  });

  test('pauses while a conversation is open and resumes at the first idle event after it ends', async () => {
    vi.useFakeTimers();
    const { h, prompts, state } = host([true, true, true]);
    const sp = new SelfPrompter(h, { idleMs: 2000 });
    state.convo = true;
    sp.start('build a hut');
    await vi.advanceTimersByTimeAsync(2000);
    expect(sp.state).toBe('paused');
    expect(prompts).toHaveLength(0);
    sp.idle(); // still talking
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sp.state).toBe('paused');
    expect(prompts).toHaveLength(0);
    state.convo = false;
    sp.idle();
    expect(sp.state).toBe('active');
    await vi.advanceTimersByTimeAsync(2000);
    expect(prompts).toHaveLength(1);
  });

  test('stop() cancels a pending prompt; a cycle that finishes after stop() neither counts nor re-arms; start() without a goal resumes the last one', async () => {
    vi.useFakeTimers();
    let finish: (used: boolean) => void = () => {};
    const prompts: string[] = [];
    const sp = new SelfPrompter(
      {
        isIdle: () => true,
        inConversation: () => false,
        announce: () => {},
        prompt: (text) => {
          prompts.push(text);
          return new Promise((r) => {
            finish = r;
          });
        },
      },
      { idleMs: 100 },
    );
    sp.start('fish');
    sp.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(prompts).toHaveLength(0);
    sp.start();
    expect(sp.goal).toBe('fish');
    await vi.advanceTimersByTimeAsync(100);
    expect(prompts).toHaveLength(1);
    sp.stop();
    finish(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(prompts).toHaveLength(1);
    expect(sp.noCommandCount).toBe(0);
    expect(
      new SelfPrompter({ isIdle: () => true, inConversation: () => false, announce: () => {}, prompt: async () => true }).start('  '),
    ).toMatch(/no goal/i);
  });
});
