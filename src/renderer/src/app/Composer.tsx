import { useId, useState, type FormEvent } from 'react';

export function Composer() {
  const id = useId();
  const [text, setText] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
  }

  return (
    <form className="composer" onSubmit={submit} aria-label="Message">
      <label htmlFor={id} className="visually-hidden">
        Message to Mino
      </label>
      <textarea
        id={id}
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={3}
        placeholder="Ask Mino to read or change files in this project…"
        aria-describedby={`${id}-hint`}
      />
      <div className="composer-bar">
        <span id={`${id}-hint`} className="muted small">
          Sending messages is not available in this version yet.
        </span>
        <button type="submit" className="primary" disabled>
          Send
        </button>
      </div>
    </form>
  );
}
