// An error a person must notice: announced at once (role=alert), shown only when there is one.
export function ErrorMessage({ text, className = 'error' }: { text: string | null | undefined; className?: string }) {
  if (!text) return null;
  return (
    <p className={className} role="alert">
      {text}
    </p>
  );
}
