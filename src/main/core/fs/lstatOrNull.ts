// The one way Mino asks "what is at this path, if anything" without following a link.
import * as fs from 'node:fs';
import { errorCode } from '../../../shared/errors';

/** The entry itself (a link is not followed), or null when nothing is there; any other failure is thrown. */
export function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}
