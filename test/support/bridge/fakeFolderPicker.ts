// Stands in for the native folder dialog: a test says what the person "picks" next.
import type { FolderPicker } from '../../../src/main/service/ports';

export class FakeFolderPicker {
  private readonly answers: Array<string | null> = [];
  calls = 0;

  /** The next pick returns `dir` (null: the person cancels). */
  willPick(dir: string | null): void {
    this.answers.push(dir);
  }

  readonly pick: FolderPicker = async () => {
    this.calls += 1;
    if (this.answers.length === 0) throw new Error('The test did not say which folder the picker should return.');
    return this.answers.shift() ?? null;
  };
}
