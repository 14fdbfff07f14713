/**
 * Right-click uses of the embedded server that other plugins do not cover, as vanilla 1.21:
 * - a bucket on a cow or mooshroom (`use_entity` interact) fills with milk (`Cow.mobInteract`):
 *   a single bucket becomes a milk bucket in the hand, one of a stack goes to the inventory;
 * - shears on an unsheared adult sheep (`Sheep.mobInteract`) shear it: 1–3 wool of its colour
 *   drop, its `sheared` flag is set (the mob service's wool state, sent to watchers as metadata
 *   `wool` bit 0x10) and the shears lose one durability.
 * Levers, buttons and pressure plates are the switches feature's (./switches.ts).
 */
import type { SquidEntity, SquidPlayer, SquidServer } from '../types.ts';
import { popDrops } from '../services/drops.ts';
import { giveItems } from '../services/inventory.ts';
import { consumeHeld, damageHeldTool, handSlot, heldItem, itemClass, itemName } from '../services/items.ts';
import { mobState, sendMobMetadata, WOOL_COLOURS } from '../services/mobs.ts';

/** vanilla entity interaction range (3) + slack, from the player's position, in blocks. */
const INTERACT_REACH = 6;
/** `use_entity` mouse values (protocol): interact, attack, interact at. */
const MOUSE_INTERACT = 0;
/**
 * A sheep's wool state: its colour index (../services/mobs.ts `WOOL_COLOURS`) and whether it is
 * sheared, kept by the mob service (white and unsheared for a sheep it did not spawn).
 */
export function sheepState(serv: SquidServer, sheep: SquidEntity): { colour: number; sheared: boolean } {
  const mob = mobState(serv, sheep);
  if (!mob) return { colour: 0, sheared: false };
  mob.wool ??= { colour: 0, sheared: false };
  return mob.wool;
}

/** Milks a cow: the held bucket (one of it) becomes a milk bucket. @returns true when it did. */
function milk(serv: SquidServer, player: SquidPlayer, hand: number): boolean {
  const item = heldItem(player, hand);
  if (!item || itemName(serv, item) !== 'bucket') return false;
  if (player.gameMode === 1) {
    giveItems(player, 'milk_bucket', 1);
    return true;
  }
  if (item.count === 1) {
    const Item = itemClass(serv);
    player.inventory.updateSlot(handSlot(player, hand), new Item(serv.registry.itemsByName.milk_bucket!.id, 1));
  } else {
    consumeHeld(player, 1, hand);
    giveItems(player, 'milk_bucket', 1);
  }
  return true;
}

/** Shears a sheep: drops 1–3 wool, marks it sheared, damages the shears. @returns true when it did. */
function shear(serv: SquidServer, player: SquidPlayer, sheep: SquidEntity, hand: number): boolean {
  const item = heldItem(player, hand);
  if (!item || itemName(serv, item) !== 'shears') return false;
  const mob = mobState(serv, sheep);
  if (!mob) return false;
  const state = sheepState(serv, sheep);
  if (state.sheared || mob.baby) return false;
  state.sheared = true;
  sendMobMetadata(serv, mob, sheep.getNearbyPlayers?.() ?? serv.players);
  const count = 1 + Math.floor(Math.random() * 3);
  const p = sheep.position;
  popDrops(serv, sheep.world, { x: Math.floor(p.x), y: Math.floor(p.y) + 1, z: Math.floor(p.z) }, [
    { item: `${WOOL_COLOURS[state.colour]}_wool`, count },
  ]);
  damageHeldTool(serv, player, 1, hand);
  return true;
}

/** Handles one entity interaction of `player`; unknown combinations are ignored. */
function onUseEntity(serv: SquidServer, player: SquidPlayer, packet: { target: number; mouse: number; hand?: number }): void {
  if (packet.mouse !== MOUSE_INTERACT || player.health <= 0 || player.gameMode === 3) return;
  const target: SquidEntity | undefined = serv.entities[packet.target];
  if (!target || target.type !== 'mob' || target.world !== player.world) return;
  if (target.position.distanceTo(player.position) > INTERACT_REACH) return;
  const hand = packet.hand ?? 0;
  if (target.name === 'cow' || target.name === 'mooshroom') milk(serv, player, hand);
  else if (target.name === 'sheep') shear(serv, player, target, hand);
}

/** Installs milking and shearing on a started server. */
export function installInteractions(serv: SquidServer): void {
  serv.on('newPlayer', (player) => {
    player._client.on('use_entity', (packet: { target: number; mouse: number; hand?: number }) => {
      try {
        onUseEntity(serv, player, packet);
      } catch (err) {
        serv.emit('error', err);
      }
    });
  });
}
