// The edge between the sessions list and the conversation: drag it, or focus
// it and use the arrow keys (Home and End for the narrowest and widest), to
// give the list's titles more room. The width is remembered in this browser
// profile (localStorage) for every window; a value that no longer fits is
// brought within the bounds.
import { useCallback, useEffect, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';

export const SIDEBAR_MIN_PX = 180;
export const SIDEBAR_MAX_PX = 560;
const STEP_PX = 16;
const STORAGE_KEY = 'mino.sidebarWidth';

function clampWidth(width: number): number {
  return Math.round(Math.min(SIDEBAR_MAX_PX, Math.max(SIDEBAR_MIN_PX, width)));
}

function storedWidth(): number | null {
  try {
    const value = Number.parseInt(localStorage.getItem(STORAGE_KEY) ?? '', 10);
    return Number.isFinite(value) ? clampWidth(value) : null;
  } catch {
    // ignore: storage may be unavailable (a private profile); the default width serves.
    return null;
  }
}

/** The sidebar's width in pixels (null: the stylesheet's default) and a setter that remembers it. */
export function useSidebarWidth(): [number | null, (width: number) => void] {
  const [width, setWidth] = useState<number | null>(storedWidth);
  const set = useCallback((next: number) => {
    const clamped = clampWidth(next);
    setWidth(clamped);
    try {
      localStorage.setItem(STORAGE_KEY, String(clamped));
    } catch {
      // ignore: not remembered, but the width still applies to this window.
    }
  }, []);
  return [width, set];
}

/** The layout's style for a chosen width (the stylesheet reads --sidebar-width); none for the default. */
export function sidebarWidthStyle(width: number | null): CSSProperties | undefined {
  return width === null ? undefined : ({ '--sidebar-width': `${width}px` } as CSSProperties);
}

interface SidebarSplitterProps {
  controls: string;
  width: number | null;
  onResize(width: number): void;
}

export function SidebarSplitter({ controls, width, onResize }: SidebarSplitterProps) {
  /** The sidebar as the stylesheet laid it out, until a width is chosen (a focusable separator states its value). */
  const [laidOut, setLaidOut] = useState<number | null>(null);
  useEffect(() => {
    if (width === null) setLaidOut(Math.round(document.getElementById(controls)?.getBoundingClientRect().width ?? SIDEBAR_MIN_PX));
  }, [width, controls]);
  const current = () => width ?? laidOut ?? SIDEBAR_MIN_PX;

  function keyDown(event: KeyboardEvent<HTMLDivElement>) {
    const now = current();
    const next = { ArrowLeft: now - STEP_PX, ArrowRight: now + STEP_PX, Home: SIDEBAR_MIN_PX, End: SIDEBAR_MAX_PX }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onResize(next);
  }

  function pointerDown(event: PointerEvent<HTMLDivElement>) {
    const sidebar = document.getElementById(controls);
    if (!sidebar || event.button !== 0) return;
    event.preventDefault();
    const left = sidebar.getBoundingClientRect().left;
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    const move = (moved: globalThis.PointerEvent) => onResize(moved.clientX - left);
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  }

  return (
    <div
      className="sidebar-splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label="Width of the sessions list"
      aria-controls={controls}
      aria-valuemin={SIDEBAR_MIN_PX}
      aria-valuemax={SIDEBAR_MAX_PX}
      aria-valuenow={current()}
      tabIndex={0}
      data-testid="sidebar-splitter"
      onKeyDown={keyDown}
      onPointerDown={pointerDown}
    />
  );
}
