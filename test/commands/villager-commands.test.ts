/**
 * The reference's villager trading commands on the embedded server, run by an agent as a player
 * would type them: `!entities` naming villagers by id, `!showVillagerTrades(id)` and
 * `!tradeWithVillager(id, index, count)`. Each checks the bot's inventory and the server's.
 */
import { describe, expect, test } from 'vitest';
import type { Entity } from 'prismarine-entity';
import type { Vec3 } from 'vec3';
import { waitUntil } from '../helpers/world.ts';
import { villagerInfo } from '../../src/skills/villagers.ts';
import { area, command, count, give, outcome, run, serverCount, useWorld } from './agent-world.ts';

const w = useWorld();

describe('villager trading', () => {
  /** Summons a villager with `data` (VillagerData NBT, or none) at `at` and waits until Andy sees it and its data. */
  async function summonVillager(at: Vec3, data?: string): Promise<Entity> {
    command(w, `/summon villager ${at.x + 0.5} ${at.y} ${at.z + 0.5}${data ? ` {VillagerData:${data}}` : ''}`);
    const seen = () =>
      Object.values(w.andy.bot.entities).find(
        (e) => e.name === 'villager' && e.position.distanceTo(at) < 3 && villagerInfo(w.andy.bot, e).level > 0,
      );
    await waitUntil(() => !!seen(), 'Andy sees the villager and its data');
    return seen()!;
  }

  async function killVillagers(): Promise<void> {
    command(w, '/kill @e[type=villager]');
    await waitUntil(() => !Object.values(w.andy.bot.entities).some((e) => e.name === 'villager' && e.isValid), 'Andy sees no villager');
  }

  test('!entities names a farmer by id; !showVillagerTrades walks to it and lists its offers; !tradeWithVillager trades twice', async () => {
    const base = await area(w, 0, -80);
    const farmer = await summonVillager(base.offset(12, 0, 0), '{profession:"minecraft:farmer",level:1}');
    try {
      expect(await run(w.andy, '!entities')).toContain(`Villager ${farmer.id}: farmer (novice)`);
      // Where Andy stands when the merchant window opens: within an interaction's reach (vanilla's
      // 3 blocks, and a margin for the villager's steps since Andy arrived; it wanders on until it
      // trades, and again once the window closes), from the 12 blocks away it started.
      let apart: number | undefined;
      w.andy.bot.once('windowOpen', () => {
        apart = w.andy.bot.entity.position.distanceTo(farmer.position);
      });
      const shown = await outcome(w.andy, `!showVillagerTrades(${farmer.id})`);
      expect(shown).toMatchObject({ ok: true, code: 'ok', data: { villager: { id: farmer.id, profession: 'farmer', level: 1 } } });
      expect(apart).toBeLessThanOrEqual(6);
      const trades = shown.data!.trades!;
      expect(trades).toHaveLength(2);
      expect(shown.text.split('\n')).toEqual([
        `Villager ${farmer.id}: farmer (novice) trades:`,
        ...trades.map((t) => `${t.index}: ${t.buy.count} ${t.buy.item} » ${t.sell.count} ${t.sell.item} (0/${t.maxUses} used)`),
      ]);
      // A farmer's novice offers take one item each: pay for two of the first.
      const offer = trades[0]!;
      await give(w, offer.buy.item, offer.buy.count * 2);
      const sellBefore = count(w.andy, offer.sell.item);
      const traded = await outcome(w.andy, `!tradeWithVillager(${farmer.id}, 1, 2)`);
      expect(traded).toMatchObject({
        ok: true,
        code: 'ok',
        data: { traded: 2, gained: { [offer.sell.item]: offer.sell.count * 2 }, spent: { [offer.buy.item]: offer.buy.count * 2 } },
      });
      await waitUntil(() => serverCount(w, 'Andy', offer.sell.item) === sellBefore + offer.sell.count * 2, 'the server gave the goods');
      await waitUntil(() => count(w.andy, offer.sell.item) === sellBefore + offer.sell.count * 2, 'Andy sees the goods');
      expect(serverCount(w, 'Andy', offer.buy.item)).toBe(0);
      const again = await outcome(w.andy, `!showVillagerTrades(${farmer.id})`);
      expect(again.data!.trades![0]).toMatchObject({ uses: 2 });

      expect(await outcome(w.andy, `!tradeWithVillager(${farmer.id}, 1, 1)`)).toMatchObject({
        ok: false,
        code: 'missing_items',
        data: { missing: { [offer.buy.item]: offer.buy.count } },
      });
      expect(await outcome(w.andy, `!tradeWithVillager(${farmer.id}, 3, 1)`)).toMatchObject({
        ok: false,
        code: 'invalid',
        text: `Villager ${farmer.id} has 2 trades; there is no trade 3. See !showVillagerTrades(${farmer.id}).`,
      });
    } finally {
      await killVillagers();
    }
  }, 60_000);

  test('a wrong id lists the villagers near; an unemployed villager does not trade', async () => {
    const base = await area(w, 16, -80);
    const idle = await summonVillager(base.offset(3, 0, 0));
    try {
      expect(await outcome(w.andy, '!showVillagerTrades(999999)')).toMatchObject({
        ok: false,
        code: 'not_found',
        text: `!showVillagerTrades failed: There is no villager with id 999999. Villagers within 16 blocks: ${idle.id}: none.`,
      });
      expect(await outcome(w.andy, `!tradeWithVillager(${idle.id}, 1, 1)`)).toMatchObject({
        ok: false,
        code: 'invalid',
        text: expect.stringMatching(new RegExp(`^!tradeWithVillager failed: Villager ${idle.id} has no trade \\(profession: none\\)`)),
      });
    } finally {
      await killVillagers();
    }
  }, 30_000);
});
