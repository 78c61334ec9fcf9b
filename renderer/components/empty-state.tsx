import type { ReactNode } from 'react';

/** What a screen shows when it has nothing yet: what it is for and what to do next. */
export function EmptyState({
  title,
  children,
  testId,
}: {
  readonly title: string;
  readonly children: ReactNode;
  readonly testId?: string;
}) {
  return (
    <section className="empty-state" data-testid={testId}>
      <h2>{title}</h2>
      <div className="empty-state-body">{children}</div>
    </section>
  );
}
