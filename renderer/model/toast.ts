/** A short message about something that just happened, with at most one follow-up action. */
export interface Toast {
  readonly id: number;
  readonly tone: 'info' | 'success' | 'warning' | 'error';
  readonly title: string;
  readonly detail?: string;
  /** The follow-up ("Undo restore"), run by the store when the button is pressed. */
  readonly action?: { readonly label: string; readonly testId: string };
  /** How long it stays while nobody points at it or focuses it (it leaves sooner when its action no longer applies). */
  readonly lifetimeMs: number;
}
