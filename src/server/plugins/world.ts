import type { SquidServer } from '../embedded.ts';

/** Chat, commands, entity and teleport fixes. */
export function worldPlugin(_serv: SquidServer): void {}
