// Stands in for the yes/no dialog main asks itself (the NativeConfirm port),
// which no page can answer: a test says how the person answers, or holds the
// question open (the dialog is on screen) and answers it later.
import type { ClientId } from '../../../src/main/service/clients';
import type { NativeConfirm, NativeQuestion } from '../../../src/main/service/ports';

/** `hold`: the dialog stays open until the test calls `answerHeld`. */
export type NativeAnswer = boolean | 'hold';

interface Held {
  client: ClientId;
  question: NativeQuestion;
  answer(yes: boolean): void;
}

export class FakeNativeConfirm {
  /** Every question asked, in order. */
  readonly questions: NativeQuestion[] = [];
  /** Which window each question was asked over, in the same order. */
  readonly clients: ClientId[] = [];
  /** How the person answers: Cancel (the dialog's default) until a test says otherwise. */
  answer: NativeAnswer = false;
  private readonly held: Held[] = [];
  private readonly waiting: Array<(held: Held) => void> = [];

  readonly confirm: NativeConfirm = (client, question) => {
    this.questions.push(question);
    this.clients.push(client);
    if (this.answer !== 'hold') return Promise.resolve(this.answer);
    return new Promise<boolean>((resolve) => {
      const held = { client, question, answer: resolve };
      const waiter = this.waiting.shift();
      if (waiter) waiter(held);
      else this.held.push(held);
    });
  };

  /** The oldest question held open, once it is asked. */
  nextHeld(): Promise<Held> {
    const held = this.held.shift();
    if (held) return Promise.resolve(held);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Answers the oldest question held open (waiting for it to be asked); returns what it asked. */
  async answerHeld(yes: boolean): Promise<NativeQuestion> {
    const held = await this.nextHeld();
    held.answer(yes);
    return held.question;
  }
}
