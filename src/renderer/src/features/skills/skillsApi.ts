// The two requests about skills, unwrapped like every other call in lib/api.
import type { SkillsView } from '../../../../shared/skills';
import { ApiError } from '../../lib/api';

function bridge() {
  if (!('mino' in window) || !window.mino) throw new ApiError('This page is not connected to Mino. Start it from the Mino app.');
  return window.mino;
}

export async function getSkills(): Promise<SkillsView> {
  const result = await bridge().getSkills();
  if (!result.ok) throw new ApiError(result.error);
  return result.value;
}

export async function reloadSkills(): Promise<SkillsView> {
  const result = await bridge().reloadSkills();
  if (!result.ok) throw new ApiError(result.error);
  return result.value;
}
