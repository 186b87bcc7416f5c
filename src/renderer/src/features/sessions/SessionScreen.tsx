// One session in its window, laid out in columns: the project's sessions on
// the left (a toggle on a narrow window) and the conversation (actions,
// problems found on load, unknown results to acknowledge, the transcript with
// the project's files beside it, the composer).
import { useEffect, useId, useMemo, useState } from 'react';
import type { SessionView } from '../../../../shared/sessions';
import { Composer } from '../../app/Composer';
import { api } from '../../lib/api';
import { useMediaQuery } from '../../lib/useMediaQuery';
import { SessionSkills } from '../skills/SessionSkills';
import { FilePanel } from '../files/FilePanel';
import { Transcript } from '../transcript/Transcript';
import { useSessionChanges } from '../changes/useSessionChanges';
import { withChangeSummaries } from '../changes/transcriptChanges';
import { TranscriptActionsContext } from '../changes/transcriptActions';
import { useConversationActions } from './useConversationActions';
import type { TranscriptState } from '../transcript/transcriptModel';
import { TurnRetryContext } from '../transcript/turnRetry';
import { useTurnRetry } from '../transcript/useTurnRetry';
import { useSetupNeeded } from '../settings/useServices';
import { NARROW_WINDOW_QUERY } from './sessionLayout';
import { SessionSidebar } from './SessionSidebar';
import { SidebarSplitter, sidebarWidthStyle, useSidebarWidth } from './SidebarSplitter';
import { SessionToolbar } from './SessionToolbar';
import { UnknownResults } from './UnknownResults';
import { PlanChecklist, ProjectInstructionsLine } from '../plan/PlanChecklist';
import './SessionScreen.css';

interface SessionScreenProps {
  view: SessionView;
  transcript: TranscriptState;
  onAdopt(view: SessionView): void;
  onMessage(message: string | null, isError?: boolean): void;
}

export function SessionScreen({ view, transcript, onAdopt, onMessage }: SessionScreenProps) {
  const ids = useId();
  const { changes, behind, refresh } = useSessionChanges(view.id, view.busy);
  const actions = useConversationActions({ busy: view.busy, items: transcript.items, refreshChanges: refresh, adopt: onAdopt, notify: onMessage });
  const items = useMemo(() => withChangeSummaries(transcript.items, changes, behind), [transcript.items, changes, behind]);
  // Retry on the failed turn's card (features/transcript/TurnEnd.tsx).
  const turnRetry = useTurnRetry(view.busy, transcript.lastEnd, onMessage);
  // What the model was last told of the project's instructions: the running turn's word, else the session's.
  const instructions = transcript.instructions !== undefined ? transcript.instructions : (view.projectInstructions ?? null);
  // Sending waits for a working model service (the first-run setup shows above); main refuses it too.
  const setupNeeded = useSetupNeeded();
  const blocked = view.unknownCalls.length > 0 ? 'Acknowledge the unknown results above before asking another question.' : setupNeeded;
  const narrow = useMediaQuery(NARROW_WINDOW_QUERY);
  // Open beside the conversation on a wide window; on a narrow one only when asked for.
  const [sidebarOpen, setSidebarOpen] = useState(!narrow);
  useEffect(() => setSidebarOpen(!narrow), [narrow]);
  const sidebarId = `${ids}-sidebar`;
  // The sessions list's width, chosen with its splitter and remembered (SidebarSplitter.tsx).
  const [sidebarWidth, setSidebarWidth] = useSidebarWidth();

  return (
    <div className={`session-layout${narrow ? ' narrow' : ''}${sidebarOpen ? ' with-sidebar' : ''}`} data-testid="session-layout" data-session-id={view.id} style={sidebarWidthStyle(sidebarWidth)}>
      {sidebarOpen && (
        <SessionSidebar
          id={sidebarId}
          view={view}
          onAdopt={onAdopt}
          onMessage={onMessage}
          onClose={narrow ? () => setSidebarOpen(false) : undefined}
        />
      )}
      {sidebarOpen && !narrow && <SidebarSplitter controls={sidebarId} width={sidebarWidth} onResize={setSidebarWidth} />}
      <section className="session-main" aria-label="Conversation">
        <div className="session-bar">
          <button type="button" className="sidebar-toggle" aria-expanded={sidebarOpen} aria-controls={sidebarId} onClick={() => setSidebarOpen((open) => !open)}>
            Sessions
          </button>
          <SessionToolbar view={view} onAdopt={onAdopt} onMessage={onMessage} onChangesReviewed={refresh} />
          <SessionSkills sessionId={view.id} busy={view.busy} />
        </div>
        {view.loadProblems.length > 0 && (
          <section className="banner" aria-label="Problems found when loading this session">
            {view.loadProblems.map((problem) => (
              <p key={problem}>{problem}</p>
            ))}
          </section>
        )}
        {view.unknownCalls.length > 0 && (
          <UnknownResults
            calls={view.unknownCalls}
            onAcknowledge={async () => {
              try {
                onAdopt(await api.acknowledgeUnknownResults());
              } catch (failure) {
                onMessage(failure instanceof Error ? failure.message : String(failure), true);
              }
            }}
          />
        )}
        {instructions && <ProjectInstructionsLine instructions={instructions} />}
        <TranscriptActionsContext.Provider value={actions}>
        <div className="session-body">
          <TurnRetryContext.Provider value={turnRetry}>
            {/* The plan is pinned inside the log's box while the turn runs, so the log keeps its height as it comes and goes. */}
            <Transcript items={items} summarizedBefore={transcript.summarizedBefore} busy={view.busy} progress={transcript.progress} pinned={view.busy && transcript.plan ? <PlanChecklist plan={transcript.plan} /> : null} />
          </TurnRetryContext.Provider>
          <FilePanel busy={view.busy} />
        </div>
        </TranscriptActionsContext.Provider>
        <Composer
          key={view.id}
          busy={view.busy}
          lastEnd={transcript.lastEnd}
          blockedReason={blocked}
          onSend={async (text, images) => {
            await api.sendMessage({ text, ...(images ? { images } : {}) });
          }}
          onStop={async () => {
            await api.stopTurn();
          }}
        />
      </section>
    </div>
  );
}
