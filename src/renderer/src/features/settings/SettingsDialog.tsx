import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { SandboxStatus } from '../../../../shared/sandboxStatus';
import { api, errorMessage } from '../../lib/api';
import { McpServersSection } from './McpServersSection';
import { ServicesSection } from './ServicesSection';
import { SkillsSection } from '../skills/SkillsSection';
import { RulesSection } from '../rules/RulesSection';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ModalDialog } from '../../components/ModalDialog';
import { SandboxStatusSection } from './SandboxStatusSection';
import { SettingInput } from './SettingInput';
import {
  SETTING_FIELDS,
  SETTING_NAMES,
  settingFromInput,
  settingToInput,
  type SettingName,
  type Settings,
  type SettingsPatch,
} from '../../../../shared/settings';

interface SettingsDialogProps {
  open: boolean;
  onClose(): void;
}

/** What the form holds for each setting: text as typed, or a checkbox's state. */
type Draft = Record<SettingName, string | boolean>;

/**
 * The settings this form holds: all but the base URL and model, which are the
 * `default` service's and edited with the other services (ServicesSection), so
 * a save here never writes back a URL that section has since changed.
 */
const FORM_SETTINGS = SETTING_NAMES.filter((name) => name !== 'baseUrl' && name !== 'model');

function draftOf(settings: Settings): Draft {
  return Object.fromEntries(FORM_SETTINGS.map((name) => [name, settingToInput(SETTING_FIELDS[name], settings[name])])) as Draft;
}

function patchOf(draft: Draft): SettingsPatch {
  return Object.fromEntries(FORM_SETTINGS.map((name) => [name, settingFromInput(SETTING_FIELDS[name], draft[name])])) as SettingsPatch;
}

/** Where the diagnostic log is written, asked afresh on each opening; null when this copy writes none. */
function useLogDirectory(open: boolean): string | null {
  const [logDirectory, setLogDirectory] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    let live = true;
    api.getAppInfo().then(
      (info) => live && setLogDirectory(info.logDirectory),
      () => live && setLogDirectory(null),
    );
    return () => {
      live = false;
    };
  }, [open]);
  return logDirectory;
}

/** The settings file as a form: loaded afresh on each opening, saved whole. */
function useSettingsForm(open: boolean) {
  const [draft, setDraft] = useState<Draft | null>(null);
  const [path, setPath] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [sandbox, setSandbox] = useState<SandboxStatus | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setDraft(null);
    setProblems([]);
    setSandbox(null);
    setLoadError(null);
    setSaveError(null);
    setSaved(false);
    api.getSettings().then(
      (view) => {
        if (!live) return;
        setPath(view.path);
        setProblems(view.problems);
        setSandbox(view.sandbox);
        setDraft(draftOf(view.settings));
      },
      (failure: unknown) => live && setLoadError(errorMessage(failure)),
    );
    return () => {
      live = false;
    };
  }, [open]);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!draft) return;
    setSaveError(null);
    setSaved(false);
    try {
      const view = await api.saveSettings(patchOf(draft));
      setProblems(view.problems);
      setSandbox(view.sandbox);
      setDraft(draftOf(view.settings));
      setSaved(true);
    } catch (failure) {
      setSaveError(errorMessage(failure));
    }
  }

  function change(name: SettingName, value: string | boolean) {
    setSaved(false);
    setDraft((current) => (current ? { ...current, [name]: value } : current));
  }

  return { draft, path, problems, sandbox, loadError, saveError, saved, save, change };
}

function GeneralSettingsForm({ ids, form }: { ids: string; form: ReturnType<typeof useSettingsForm> }) {
  const { draft, path, problems, saveError, saved, save, change } = form;
  return (
    <form onSubmit={save} aria-label="General settings" className="form">
      <h3>General</h3>
      {problems.map((problem) => (
        <p key={problem} className="muted" role="note">
          {problem}
        </p>
      ))}
      {FORM_SETTINGS.map((name) => (
        <SettingInput
          key={name}
          id={`${ids}-${name}`}
          field={SETTING_FIELDS[name]}
          value={draft?.[name] ?? settingToInput(SETTING_FIELDS[name], undefined)}
          disabled={!draft}
          onChange={(value) => change(name, value)}
        />
      ))}
      <ErrorMessage text={saveError} />
      {saved && (
        <p className="success" role="status">
          Saved to {path}.
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={!draft}>
          Save settings
        </button>
      </div>
    </form>
  );
}

function DiagnosticLogSection({ logDirectory }: { logDirectory: string | null }) {
  return (
    <section aria-label="Diagnostic log" className="form">
      <h3>Diagnostic log</h3>
      <p className="muted">
        {logDirectory ? (
          <>
            Mino notes what went wrong in the background (refused requests, servers that stopped, repaired sessions) in{' '}
            <code>{logDirectory}</code>, one <code>mino-YYYY-MM-DD.log</code> file a day, kept for a week, with your API key
            and MCP credentials left out. Attach the day&apos;s file when you report a problem.
          </>
        ) : (
          'This copy of Mino writes no diagnostic log.'
        )}
      </p>
    </section>
  );
}

/** A modal dialog like every other (ModalDialog: Tab cycles inside, Escape closes it, focus goes back to the composer). */
export function SettingsDialog({ open, onClose }: SettingsDialogProps) {
  const closeButton = useRef<HTMLButtonElement>(null);
  const ids = useId();
  // Each part loads afresh on each opening; its state stays while the dialog is closed.
  const logDirectory = useLogDirectory(open);
  const settings = useSettingsForm(open);

  // Mounted means shown (ModalDialog).
  if (!open) return null;
  return (
    <ModalDialog labelledBy={`${ids}-title`} onDismiss={onClose} initialFocus={closeButton} testId="settings-dialog">
      <header className="dialog-header">
        <h2 id={`${ids}-title`}>Settings</h2>
        <button type="button" className="ghost" ref={closeButton} onClick={onClose} aria-label="Close settings">
          Close
        </button>
      </header>
      <ErrorMessage text={settings.loadError} />
      <ServicesSection open={open} />
      <GeneralSettingsForm ids={ids} form={settings} />
      <SandboxStatusSection status={settings.sandbox} />
      <McpServersSection open={open} />
      <SkillsSection open={open} />
      <RulesSection open={open} />
      <DiagnosticLogSection logDirectory={logDirectory} />
    </ModalDialog>
  );
}
