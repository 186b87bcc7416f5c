// Below this width the session sidebar is a toggle over the content instead
// of a column beside it, so the transcript keeps a usable width at 800 px.
// The CSS uses the same figure (SessionScreen.css).
export const NARROW_WINDOW_QUERY = '(max-width: 999px)';
