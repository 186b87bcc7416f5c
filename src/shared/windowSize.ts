// The smallest window Mino is laid out for: the window cannot be made smaller,
// and the layout is tested from this size up (test/e2e/layout.spec.ts).
export const MIN_WINDOW = { width: 800, height: 600 } as const;
