// The conversation, virtualized: only the items near the viewport are in the
// DOM, so a session with thousands of events scrolls as lightly as a new one.
// It follows the newest item while the person is at the bottom, and stays put
// when they have scrolled up to read, offering *Jump to latest* then. A
// transient line at its end says what a running turn is waiting for.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject, type UIEvent } from 'react';
import { markHiddenCharacters } from '../../../../shared/hiddenCharacters';
import { SafeMarkdown } from './SafeMarkdown';
import { SummaryCard } from './SummaryCard';
import { ToolCard } from './ToolCard';
import { TurnEnd } from './TurnEnd';
import { MessageText } from './MessageText';
import type { TranscriptItem, TurnProgress as Progress } from './transcriptModel';
import { TurnProgress } from './TurnProgress';
import type { ChangesItem } from '../changes/transcriptChanges';
import { TurnChangesSummary } from '../changes/TurnChangesSummary';
import { EditAndResend } from '../sessions/EditAndResend';
import { SteeredMessage } from '../steering/SteeredMessage';
import { MessageImages } from '../images/MessageImages';
import './Transcript.css';

const NEAR_BOTTOM_PX = 48;

interface TranscriptProps {
  items: Array<TranscriptItem | ChangesItem>;
  /** Items before this index were summarized: shown, marked as such. */
  summarizedBefore?: number;
  /** A turn runs: the summary cannot be edited meanwhile. */
  busy?: boolean;
  /** What the running turn waits for, shown at the end. */
  progress?: Progress;
  /** Kept in view at the log's bottom edge (the plan while a turn runs): inside the log's box, so nothing around it moves. */
  pinned?: ReactNode;
}

/** Which items' details are open, by key; each toggles on its own. */
function useExpandedKeys() {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((key: string) => {
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);
  return { expanded, toggle };
}

/**
 * Keeps the log at its newest item while the person is at the bottom (or has
 * just sent a message), and lets it stay put once they scroll up; `away` is
 * true then, and `jumpToLatest` brings them back.
 */
function useFollowLatest(scroller: RefObject<HTMLElement | null>, items: TranscriptProps['items'], totalSize: number, progress: Progress | undefined) {
  const following = useRef(true);
  /** The person scrolled up: *Jump to latest* is offered. */
  const [away, setAway] = useState(false);
  // Where this hook last put the scroll position. A scroll event is
  // dispatched a frame after the change that caused it, by which time rows
  // measured since may have grown the log below that position: only a move
  // above it is the person scrolling up, so only that stops the following.
  const placedAt = useRef(0);
  const lastUserKey = useRef<string | null>(null);

  const toBottom = (element: HTMLElement) => {
    element.scrollTop = element.scrollHeight;
    placedAt.current = element.scrollTop;
  };

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    // Sending a message always brings the new turn into view.
    const newestUser = items.findLast((item) => item.kind === 'user')?.key ?? null;
    if (newestUser !== lastUserKey.current) {
      lastUserKey.current = newestUser;
      following.current = true;
      setAway(false);
    }
    if (following.current) toBottom(element);
  }, [items, totalSize, progress?.waitingSince, progress?.retry]);

  const jumpToLatest = () => {
    following.current = true;
    setAway(false);
    if (scroller.current) toBottom(scroller.current);
  };

  const onScroll = (event: UIEvent<HTMLElement>) => {
    const element = event.currentTarget;
    if (element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX) following.current = true;
    else if (element.scrollTop < placedAt.current - 1) following.current = false;
    setAway(!following.current);
  };

  return { away, jumpToLatest, onScroll };
}

export function Transcript({ items, summarizedBefore = 0, busy = false, progress, pinned }: TranscriptProps) {
  const currentSummary = items.findLast((item) => item.kind === 'summary')?.key ?? null;
  const scroller = useRef<HTMLElement>(null);
  const { expanded, toggle } = useExpandedKeys();

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 96,
    overscan: 8,
    getItemKey: (index) => items[index]?.key ?? index,
  });
  const totalSize = virtualizer.getTotalSize();
  const { away, jumpToLatest, onScroll } = useFollowLatest(scroller, items, totalSize, progress);

  return (
    <section
      ref={scroller}
      className="transcript"
      role="log"
      aria-label="Conversation"
      data-testid="transcript"
      // The log scrolls; a keyboard needs to be able to reach it to scroll it.
      tabIndex={0}
      onScroll={onScroll}
    >
      {items.length === 0 ? (
        <p className="muted empty">No messages yet. Ask Mino about this project below.</p>
      ) : (
        <div className="transcript-canvas" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index];
            if (!item) return null;
            const summarized = row.index < summarizedBefore;
            return (
              <div
                key={row.key}
                ref={virtualizer.measureElement}
                data-index={row.index}
                className={`transcript-row${summarized ? ' summarized' : ''}`}
                data-summarized={summarized || undefined}
                style={{ transform: `translateY(${row.start}px)` }}
              >
                {item.kind === 'summary' ? (
                  <SummaryCard item={item} current={item.key === currentSummary} busy={busy} expanded={expanded.has(item.key)} onToggle={() => toggle(item.key)} />
                ) : (
                  <TranscriptEntry item={item} expanded={expanded.has(item.key)} onToggle={toggle} />
                )}
              </div>
            );
          })}
        </div>
      )}
      {progress && <TurnProgress progress={progress} />}
      {pinned && <div className="transcript-pinned">{pinned}</div>}
      {away && (
        <button type="button" className="jump-latest" onClick={jumpToLatest} data-testid="jump-latest">
          Jump to latest
        </button>
      )}
    </section>
  );
}

function TranscriptEntry({ item, expanded, onToggle }: { item: Exclude<TranscriptItem, { kind: 'summary' }> | ChangesItem; expanded: boolean; onToggle(key: string): void }) {
  switch (item.kind) {
    case 'user':
      return (
        <div className="message message-user" data-testid="user-message">
          <span className="speaker">You</span>
          <MessageText text={item.text} />
          {item.images && <MessageImages images={item.images} />}
          <EditAndResend itemKey={item.key} text={item.text} images={item.images?.map((image) => image.sha256)} />
        </div>
      );
    case 'steered':
      return <SteeredMessage text={item.text} />;
    case 'assistant':
      return (
        <div className="message message-assistant" data-testid="assistant-message" aria-busy={item.streaming}>
          <span className="speaker">Mino</span>
          <SafeMarkdown text={markHiddenCharacters(item.text)} streaming={item.streaming} />
          {item.streaming && <span className="muted small">Writing…</span>}
        </div>
      );
    case 'changes':
      return <TurnChangesSummary summary={item.summary} />;
    case 'tool':
      return <ToolCard card={item} expanded={expanded} onToggle={() => onToggle(item.key)} />;
    case 'notice':
      return (
        <p className="notice" data-testid="notice">
          {markHiddenCharacters(item.message)}
        </p>
      );
    case 'thinking':
      return (
        <details className="thinking" data-testid="thinking" aria-busy={item.streaming}>
          <summary className="muted small">{item.streaming ? 'Thinking…' : 'Thinking'}</summary>
          <p className="message-text muted">{markHiddenCharacters(item.text)}</p>
        </details>
      );
    case 'turn_end':
      return <TurnEnd item={item} />;
  }
}
