/** The goal loop's state machine against a scripted host (no server, no model). */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { SelfPrompter, type SelfPrompterHost } from '../../src/agent/self-prompter.ts';

type Answer = 'command' | 'none' | 'unanswered';

/** `true`: a reply with a command; `false`: one without; or the answer itself. */
function host(replies: (boolean | Answer)[]) {
  const prompts: string[] = [];
  const announced: string[] = [];
  const state = { idle: true, convo: false, changes: 0 };
  const h: SelfPrompterHost = {
    isIdle: () => state.idle,
    inConversation: () => state.convo,
    async prompt(text) {
      prompts.push(text);
      const r = replies.shift() ?? false;
      return r === true ? 'command' : r === false ? 'none' : r;
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
    let finish: (used: Answer) => void = () => {};
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
    finish('none');
    await vi.advanceTimersByTimeAsync(1000);
    expect(prompts).toHaveLength(1);
    expect(sp.noCommandCount).toBe(0);
    expect(
      new SelfPrompter({ isIdle: () => true, inConversation: () => false, announce: () => {}, prompt: async () => 'command' }).start('  '),
    ).toMatch(/no goal/i);
  });

  test('a model that cannot answer does not end the goal: the loop waits longer each time, says so once, and goes on when it answers', async () => {
    vi.useFakeTimers();
    const { h, prompts, announced } = host(['unanswered', 'unanswered', 'unanswered', 'unanswered', 'none', 'command']);
    const sp = new SelfPrompter(h, { idleMs: 100 });
    sp.start('build a house');
    await vi.advanceTimersByTimeAsync(100);
    expect(prompts).toHaveLength(1);
    // Waits of 200, 400, 800 ms after the 1st, 2nd and 3rd unanswered prompt.
    await vi.advanceTimersByTimeAsync(199);
    expect(prompts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(prompts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(400);
    expect(prompts).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(800);
    expect(prompts).toHaveLength(4);
    expect(sp.state).toBe('active');
    expect(sp.noCommandCount).toBe(0);
    expect(announced).toEqual([expect.stringMatching(/go on with my goal once my model answers/)]);
    // Answered again: the idle delay is back to 100 ms, and a reply without a command counts.
    await vi.advanceTimersByTimeAsync(1600);
    expect(prompts).toHaveLength(5);
    expect(sp.noCommandCount).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(prompts).toHaveLength(6);
    expect(sp.noCommandCount).toBe(0);
  });

  test('held (offline), the loop never prompts, whatever idleness says, and goes on by itself once released', async () => {
    vi.useFakeTimers();
    const { h, prompts } = host([true, true]);
    const sp = new SelfPrompter(h, { idleMs: 100 });
    sp.start('mine iron');
    sp.hold();
    sp.idle();
    await vi.advanceTimersByTimeAsync(1000);
    sp.idle();
    await vi.advanceTimersByTimeAsync(1000);
    expect(prompts).toHaveLength(0);
    expect(sp.state).toBe('active');
    sp.release();
    await vi.advanceTimersByTimeAsync(100);
    expect(prompts).toHaveLength(1);
  });
});
