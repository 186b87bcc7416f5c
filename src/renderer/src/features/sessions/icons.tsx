// The sidebar's icons, drawn inline: a symbol from a font shows as an empty
// box where the bundled fonts lack it (the open-in-new-window sign did), so
// an icon never depends on one. Each is decorative: its button carries the name.
const COMMON = { width: 14, height: 14, viewBox: '0 0 16 16', fill: 'none', stroke: 'currentColor', strokeWidth: 1.5, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

/** A window with an arrow leaving it: open in a new window. */
export function NewWindowIcon() {
  return (
    <svg {...COMMON} className="icon" aria-hidden="true" focusable="false" data-testid="icon">
      <path d="M9 2.5h4.5V7" />
      <path d="M13.5 2.5 7.5 8.5" />
      <path d="M12 10v3.5H2.5V4H6" />
    </svg>
  );
}

/** A pencil: rename. */
export function RenameIcon() {
  return (
    <svg {...COMMON} className="icon" aria-hidden="true" focusable="false" data-testid="icon">
      <path d="M11 2.5 13.5 5 5.5 13H3v-2.5z" />
      <path d="M9.5 4 12 6.5" />
    </svg>
  );
}
