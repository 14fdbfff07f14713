/**
 * torch_placing: when the bot holds torches, has walked {@link TORCH_SPACING} blocks since its last
 * torch and stands in the dark, it places one at its feet. Costs one squared distance per block
 * the bot walks into (`move`, compared by block cell); nothing while it stands still.
 */
import { Vec3 } from 'vec3';
import { abortable } from '../../util/abort.ts';
import { Mode } from './mode.ts';

/** Blocks walked between two torches. */
export const TORCH_SPACING = 8;

export class TorchPlacing extends Mode {
  readonly name = 'torch_placing';
  readonly description = `Place torches in the dark every ${TORCH_SPACING} blocks walked, when you have torches.`;
  override readonly interrupts = ['!followPlayer'] as const;
  #lastTorch: Vec3 | undefined;
  #cell = '';

  protected attach(): void {
    this.listen('move', () => {
      const p = this.bot.entity?.position;
      if (!p) return;
      const cell = `${Math.floor(p.x)},${Math.floor(p.y)},${Math.floor(p.z)}`;
      if (cell === this.#cell) return;
      this.#cell = cell;
      if (this.#lastTorch && p.distanceSquared(this.#lastTorch) < TORCH_SPACING * TORCH_SPACING) return;
      this.check();
    });
  }

  override check(): void {
    if (!this.host.mayAct(this)) return;
    const p = this.bot.entity?.position;
    if (!p || (this.#lastTorch && p.distanceSquared(this.#lastTorch) < TORCH_SPACING * TORCH_SPACING)) return;
    this.host.tally();
    const feet = this.bot.blockAt(p.floored());
    const below = this.bot.blockAt(p.floored().offset(0, -1, 0));
    if (!feet || feet.name !== 'air' || below?.boundingBox !== 'block') return;
    const dark = (feet.light ?? 0) < 8 && ((feet.skyLight ?? 0) < 8 || !this.bot.time.isDay);
    if (!dark) return;
    const torch = this.bot.inventory.items().find((i) => i.name === 'torch');
    if (!torch) return;
    this.host.fire(
      this,
      'it is dark here',
      async (signal) => {
        await abortable(this.bot.equip(torch, 'hand'), signal);
        await abortable(this.bot.placeBlock(below, new Vec3(0, 1, 0)), signal);
        this.#lastTorch = p.clone();
        return 'Placed a torch.';
      },
      5_000,
    );
    this.#lastTorch = p.clone(); // one try per spot, even if placing fails
  }
}
