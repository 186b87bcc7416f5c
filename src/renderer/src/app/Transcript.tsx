export function Transcript() {
  return (
    <section className="transcript" aria-label="Conversation" aria-live="polite">
      <p className="muted empty">No messages yet. Ask Mino about this project below.</p>
    </section>
  );
}
