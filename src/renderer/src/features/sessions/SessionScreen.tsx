// One session in its window: actions, problems found on load, unknown results
// to acknowledge, the transcript, and the composer.
import { useMemo } from 'react';
import type { SessionView } from '../../../../shared/sessions';
import { Composer } from '../../app/Composer';
import { api } from '../../lib/api';
import { SessionSkills } from '../skills/SessionSkills';
import { FilePanel } from '../files/FilePanel';
import { Transcript } from '../transcript/Transcript';
import { useSessionChanges } from '../changes/useSessionChanges';
import { withChangeSummaries } from '../changes/transcriptChanges';
import type { TranscriptState } from '../transcript/transcriptModel';
import { SessionToolbar } from './SessionToolbar';
import { UnknownResults } from './UnknownResults';

interface SessionScreenProps {
  view: SessionView;
  transcript: TranscriptState;
  onAdopt(view: SessionView): void;
  onMessage(message: string | null, isError?: boolean): void;
}

export function SessionScreen({ view, transcript, onAdopt, onMessage }: SessionScreenProps) {
  const { changes, refresh } = useSessionChanges(view.id, view.busy);
  const items = useMemo(() => withChangeSummaries(transcript.items, changes), [transcript.items, changes]);
  const blocked = view.unknownCalls.length > 0 ? 'Acknowledge the unknown results above before asking another question.' : null;
  return (
    <>
      <SessionToolbar view={view} onAdopt={onAdopt} onMessage={onMessage} onChangesReviewed={refresh} />
      <SessionSkills sessionId={view.id} busy={view.busy} />
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
      <div className="session-body">
        <Transcript items={items} summarizedBefore={transcript.summarizedBefore} busy={view.busy} />
        <FilePanel busy={view.busy} />
      </div>
      <Composer
        busy={view.busy}
        blockedReason={blocked}
        onSend={async (text) => {
          await api.sendMessage({ text });
        }}
        onStop={async () => {
          await api.stopTurn();
        }}
      />
    </>
  );
}
