// What the session screen lets its transcript do (features/changes/
// transcriptActions.ts): undo from a turn's card, and Edit and resend on the
// person's messages, found by their place among the messages shown.
import { useMemo } from 'react';
import type { SessionView } from '../../../../shared/sessions';
import type { TranscriptActions } from '../changes/transcriptActions';
import type { TranscriptItem } from '../transcript/transcriptModel';

interface ConversationActionsInput {
  busy: boolean;
  items: readonly TranscriptItem[];
  refreshChanges(): void;
  adopt(view: SessionView): void;
  notify(message: string | null, isError?: boolean): void;
}

export function useConversationActions({ busy, items, refreshChanges, adopt, notify }: ConversationActionsInput): TranscriptActions {
  const places = useMemo(() => {
    const byKey = new Map<string, number>();
    for (const item of items) if (item.kind === 'user') byKey.set(item.key, byKey.size);
    return byKey;
  }, [items]);
  return useMemo(
    () => ({ busy, refreshChanges, adopt, notify, shownMessages: places.size, messageIndex: (key: string) => places.get(key) ?? null }),
    [busy, refreshChanges, adopt, notify, places],
  );
}
