// What a running turn reports to its front end (CLI printer, desktop window).
// Display-only: nothing here feeds back into a decision. The schema lives in
// src/shared so the desktop window receives exactly these events.
import type { TurnEvent } from '../../../shared/sessions';

export type { TurnEvent };

export type TurnEventListener = (event: TurnEvent) => void;
