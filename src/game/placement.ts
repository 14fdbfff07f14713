/**
 * Rules by which vanilla turns a right-click into a block's orientation, shared by the server
 * (which applies them: src/server/features/placing.ts) and the skills (which choose the click
 * that gives a wanted state).
 */

/** A horizontal direction (vanilla `Direction.Plane.HORIZONTAL`). */
export type HorizontalDirection = 'north' | 'south' | 'west' | 'east';

/** One block step towards each horizontal direction (north is −z, east is +x). */
export const HORIZONTAL_STEP: Readonly<Record<HorizontalDirection, { x: number; z: number }>> = {
  north: { x: 0, z: -1 },
  south: { x: 0, z: 1 },
  west: { x: -1, z: 0 },
  east: { x: 1, z: 0 },
};

/**
 * A door's hinge from where its cell was clicked (vanilla `DoorBlock.getHinge`, the click-point
 * rule; neighbouring doors are not considered): `x`, `z` are the click point within the door's
 * cell (0–1 each), `facing` the door's facing (the player's look).
 */
export function doorHinge(facing: HorizontalDirection, x: number, z: number): 'left' | 'right' {
  const { x: stepX, z: stepZ } = HORIZONTAL_STEP[facing];
  const left = (stepX >= 0 || !(z < 0.5)) && (stepX <= 0 || !(z > 0.5)) && (stepZ >= 0 || !(x > 0.5)) && (stepZ <= 0 || !(x < 0.5));
  return left ? 'left' : 'right';
}

/**
 * The horizontal direction a look along (dx, dz) faces (vanilla `Direction.fromYRot`: the
 * nearest of the four).
 */
export function lookFacing(dx: number, dz: number): HorizontalDirection {
  if (Math.abs(dx) > Math.abs(dz)) return dx > 0 ? 'east' : 'west';
  return dz > 0 ? 'south' : 'north';
}
