/**
 * Player state around death and game modes, as vanilla 1.21:
 * - dying drops the whole inventory (and the cursor stack) as item entities around the player
 *   (vanilla `Inventory.dropAll`, pickup delay 40 ticks) unless the game rule `keepInventory` is
 *   true, then the server emits `playerDied`;
 *   respawn itself is in ./players.ts;
 * - `/gamemode` also sends the abilities packet (flying, instant break) like vanilla;
 * - `set_creative_slot` (mineflayer `bot.creative.setInventorySlot`) is accepted only in
 *   creative mode; otherwise the client's slot is corrected.
 */
import type { SquidPlayer, SquidServer } from '../types.ts';
import { dropAround } from '../services/drops.ts';
import { gameRule } from '../services/game-rules.ts';
import { inventorySession } from '../services/inventory.ts';
import { countOf, itemClass, PLAYER_SLOTS } from '../services/items.ts';
import { sendFullState } from '../services/menus.ts';

/** Window slots of the player inventory that hold items (1–4 grid, 5–8 armour, 9–44, 45 offhand). */
const FIRST_ITEM_SLOT = PLAYER_SLOTS.gridStart;
const LAST_ITEM_SLOT = PLAYER_SLOTS.offhand;
/** `abilities` flag bits (protocol): invulnerable, flying, may fly, instant break. */
const ABILITY = { invulnerable: 0x01, flying: 0x02, allowFlying: 0x04, instantBreak: 0x08 } as const;
/** vanilla default speeds sent in `abilities`. */
const FLYING_SPEED = 0.05;
const WALKING_SPEED = 0.1;

/**
 * Drops everything a player carries as item entities and empties their inventory (client
 * synced). Called on death.
 *
 * @returns the number of stacks dropped.
 */
export function dropInventory(serv: SquidServer, player: SquidPlayer): number {
  let stacks = 0;
  const session = inventorySession(player);
  if (session?.carried) {
    dropAround(serv, player, session.carried);
    session.carried = null;
    stacks++;
  }
  for (let slot = FIRST_ITEM_SLOT; slot <= LAST_ITEM_SLOT; slot++) {
    const item = player.inventory.slots[slot];
    if (!item || countOf(item) <= 0) continue;
    dropAround(serv, player, item);
    player.inventory.updateSlot(slot, null);
    stacks++;
  }
  return stacks;
}

/** Sends the `abilities` packet for the player's game mode (vanilla `Abilities` per `GameType`). */
export function sendAbilities(player: SquidPlayer): void {
  const mode = player.gameMode ?? 0;
  let flags = 0;
  if (mode === 1) flags = ABILITY.invulnerable | ABILITY.allowFlying | ABILITY.instantBreak;
  if (mode === 3) flags = ABILITY.invulnerable | ABILITY.allowFlying | ABILITY.flying;
  player._client.write('abilities', { flags, flyingSpeed: FLYING_SPEED, walkingSpeed: WALKING_SPEED });
}

/** Installs death drops (and the `playerDied` event), game-mode abilities and the creative inventory. */
export function installPlayerState(serv: SquidServer): void {
  serv.on('newPlayer', (player) => {
    const updateHealth = player.updateHealth;
    player.updateHealth = (health: number) => {
      const wasAlive = player.health > 0;
      updateHealth(health);
      if (wasAlive && player.health <= 0) {
        if (!gameRule(serv, 'keepInventory')) dropInventory(serv, player);
        serv.emit('playerDied', player);
      }
    };

    player.sendAbilities = () => sendAbilities(player);
    player.once('spawned', () => sendAbilities(player));

    const client = player._client;
    client.removeAllListeners('set_creative_slot');
    client.on('set_creative_slot', ({ slot, item }: { slot: number; item: unknown }) => {
      const session = inventorySession(player);
      if (player.gameMode !== 1 || slot < FIRST_ITEM_SLOT || slot > LAST_ITEM_SLOT) {
        if (session) sendFullState(session);
        return;
      }
      const stack = item ? itemClass(serv).fromNotch(item) : null;
      player.inventory.updateSlot(slot, stack && countOf(stack) > 0 ? stack : null);
    });
  });
}
