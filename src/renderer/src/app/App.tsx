// The window: a project to open, then a session to pick, then the session
// itself. Approvals for this window's session can arrive at any time and are
// shown above everything else.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Project } from '../../../shared/ipc';
import type { SessionView } from '../../../shared/sessions';
import { ApprovalDialog } from '../features/approvals/ApprovalDialog';
import { useApprovalQueue } from '../features/approvals/useApprovalQueue';
import { LinkConfirmProvider } from '../features/links/LinkConfirm';
import { StartScreen } from '../features/projects/StartScreen';
import { applyOpenResult } from '../features/sessions/openSessionResult';
import { SessionPicker } from '../features/sessions/SessionPicker';
import { SessionScreen } from '../features/sessions/SessionScreen';
import { useSessionWindow } from '../features/sessions/useSessionWindow';
import { ApiKeyNotice } from '../features/settings/ApiKeyNotice';
import { SettingsDialog } from '../features/settings/SettingsDialog';
import { api, errorMessage } from '../lib/api';
import { sessionToOpen } from '../lib/launchParams';
import { Banner } from '../components/Banner';
import { Header } from './Header';
import { useCommandHandler } from '../features/commands/windowCommands';

function projectOf(dir: string): Project {
  const name = dir.split(/[\\/]/).filter(Boolean).at(-1) ?? dir;
  return { path: dir, name };
}

interface Message {
  text: string;
  isError: boolean;
}

type SetMessage = (message: Message | null) => void;

/** After a reload the window keeps its project and session on the main side; a window opened for a session opens it. */
function useRestoredWindow(adopt: (view: SessionView | null) => void, setProject: (project: Project | null) => void, setMessage: SetMessage): void {
  useEffect(() => {
    let live = true;
    api.getCurrentProject().then(
      (current) => live && setProject(current),
      (failure: unknown) => live && setMessage({ text: errorMessage(failure), isError: true }),
    );
    (async () => {
      const current = await api.getCurrentSession();
      if (current) return live && adopt(current);
      // A window opened for a session (another window asked for it) opens it now.
      const launch = sessionToOpen();
      if (!launch) return;
      const result = await api.openSession({ id: launch });
      if (!live) return;
      const elsewhere = applyOpenResult(result, adopt, 'existing');
      if (result.where === 'here') setProject(projectOf(result.session.projectDir));
      if (elsewhere) setMessage({ text: elsewhere, isError: false });
    })().catch((failure: unknown) => live && setMessage({ text: errorMessage(failure), isError: true }));
    return () => {
      live = false;
    };
  }, [adopt, setProject, setMessage]);
}

/** Menu choices arrive as intents; the window carries them out with its own requests. */
function useMenuCommands(adopt: (view: SessionView | null) => void, openProject: (project: Project) => void, openSettings: () => void, setMessage: SetMessage): void {
  useEffect(
    () =>
      api.onMenuCommand(({ command }) => {
        if (command === 'openSettings') {
          openSettings();
          return;
        }
        const run = async () => {
          if (command === 'openProject') {
            const result = await api.openProject();
            if (result.opened) openProject(result.project);
          } else {
            setMessage(null);
            const text = applyOpenResult(await api.newSession(), adopt, 'new');
            if (text) setMessage({ text, isError: false });
          }
        };
        run().catch((failure: unknown) => setMessage({ text: errorMessage(failure), isError: true }));
      }),
    [adopt, openProject, openSettings, setMessage],
  );
}

/** `text` until the person closes it; a new text (there is never none in between) shows again. */
function useDismissible(text: string | null): { shown: string | null; dismiss(): void } {
  const [dismissed, setDismissed] = useState<string | null>(null);
  useEffect(() => {
    if (text === null) setDismissed(null);
  }, [text]);
  return { shown: text !== null && text !== dismissed ? text : null, dismiss: () => setDismissed(text) };
}

export function App() {
  const [project, setProject] = useState<Project | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsClosed, setSettingsClosed] = useState(0);
  const [message, setMessage] = useState<Message | null>(null);
  const session = useSessionWindow();
  const approvals = useApprovalQueue();
  const approvalMessage = useDismissible(approvals.message);
  const { adopt } = session;
  useRestoredWindow(adopt, setProject, setMessage);

  const showMessage = useCallback((text: string | null, isError = false) => setMessage(text === null ? null : { text, isError }), []);
  const adoptSession = useCallback(
    (view: SessionView) => {
      adopt(view);
    },
    [adopt],
  );
  const viewRef = useRef(session.view);
  viewRef.current = session.view;
  const openProject = useCallback(
    (opened: Project) => {
      // The service closed this window's session if it belonged to another project.
      if (viewRef.current && viewRef.current.projectDir !== opened.path) adopt(null);
      setMessage(null);
      setProject(opened);
    },
    [adopt],
  );
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  // /model opens Settings (where the model is set) in a window without a model list (features/commands).
  useCommandHandler('settings', () => (openSettings(), null));
  useMenuCommands(adopt, openProject, openSettings, setMessage);

  const view = session.view;
  return (
    <LinkConfirmProvider>
      <div className="shell">
        <Header
          project={project}
          sessionTitle={view?.title ?? null}
          sessionId={view?.id ?? null}
          mode={view?.mode ?? null}
          context={view?.context ?? null}
          onModeChanged={(mode) => session.patch({ mode })}
          onModeMessage={showMessage}
          onOpenSettings={openSettings}
        />
        <main className="main" id="main">
          <ApiKeyNotice checkAgain={settingsClosed} onOpenSettings={openSettings} />
          {message && <Banner text={message.text} isError={message.isError} testId={message.isError ? 'window-error' : 'window-message'} onDismiss={() => setMessage(null)} />}
          {approvalMessage.shown && <Banner text={approvalMessage.shown} testId="approval-message" onDismiss={approvalMessage.dismiss} />}
          {!project ? (
            <StartScreen onOpened={openProject} />
          ) : view ? (
            <SessionScreen view={view} transcript={session.transcript} onAdopt={adoptSession} onMessage={showMessage} />
          ) : (
            <SessionPicker project={project} onAdopt={adoptSession} />
          )}
        </main>
        <SettingsDialog
          open={settingsOpen}
          onClose={() => {
            setSettingsOpen(false);
            setSettingsClosed((n) => n + 1);
          }}
        />
        {approvals.current && <ApprovalDialog key={approvals.current.requestId} request={approvals.current} waiting={approvals.waiting} onAnswer={approvals.answer} />}
      </div>
    </LinkConfirmProvider>
  );
}
