/**
 * cheat: a flag only. When on, commands may use `/tp`, `/setblock` and the like instead of walking
 * and placing (they read it through {@link ModeController.isOn}); the mode does nothing itself.
 */
import { Mode } from './mode.ts';

export class Cheat extends Mode {
  readonly name = 'cheat';
  readonly description = 'Commands may use /tp and /setblock instead of walking and placing.';

  protected attach(): void {}
}
