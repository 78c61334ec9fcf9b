import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { preferredColour, sessionIdentities, sessionLabel, type SessionIdentityInput } from './session-identity';

const colourCount = 8;

/** A session from minutes after the epoch: started at `start`, over at `end` (live when `end` is absent). */
function session(id: string, agent: string, start: number, end?: number): SessionIdentityInput {
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
  return {
    id,
    agent,
    createdAt: at(start),
    updatedAt: at(end ?? start),
    status: end === undefined ? 'working' : 'ended',
  };
}

/** Whether two sessions were live at one moment (a live one lasts for ever). */
function liveTogether(left: SessionIdentityInput, right: SessionIdentityInput): boolean {
  const endOf = (one: SessionIdentityInput) => (one.status === 'ended' ? one.updatedAt : '9999');
  return left.createdAt < endOf(right) && right.createdAt < endOf(left);
}

const sessionsArbitrary = fc
  .array(
    fc.record({
      start: fc.integer({ min: 0, max: 500 }),
      length: fc.option(fc.integer({ min: 1, max: 120 }), { nil: undefined }),
      agent: fc.constantFrom('claude-code', 'gemini-cli', 'hermes'),
    }),
    { maxLength: 40 },
  )
  .map((specs) =>
    specs.map((spec, index) =>
      session(
        `ses_${index}_${spec.start}`,
        spec.agent,
        spec.start,
        spec.length === undefined ? undefined : spec.start + spec.length,
      ),
    ),
  );

describe('session identities', () => {
  it('gives sessions that are live together different colours, whenever there are no more of them than colours', () => {
    fc.assert(
      fc.property(sessionsArbitrary, (sessions) => {
        const identities = sessionIdentities(sessions, colourCount);
        for (const left of sessions) {
          const together = sessions.filter((other) => liveTogether(left, other));
          if (together.length > colourCount) continue;
          for (const right of together) {
            if (right.id === left.id) continue;
            expect(identities.get(left.id)?.colour).not.toBe(identities.get(right.id)?.colour);
          }
        }
      }),
      { seed: 29_33, numRuns: 300 },
    );
  });

  it('never changes a session once it has started: later sessions take what is left', () => {
    fc.assert(
      fc.property(sessionsArbitrary, sessionsArbitrary, (before, later) => {
        const last = Math.max(0, ...before.map((one) => Date.parse(one.createdAt)));
        const after = later.map((one, index) => ({
          ...one,
          id: `later_${index}`,
          createdAt: new Date(last + 60_000 * (index + 1)).toISOString(),
          updatedAt: new Date(last + 60_000 * (index + 2)).toISOString(),
        }));
        const alone = sessionIdentities(before, colourCount);
        const withLater = sessionIdentities([...after, ...before], colourCount);
        for (const one of before) expect(withLater.get(one.id)?.colour).toBe(alone.get(one.id)?.colour);
      }),
      { seed: 33, numRuns: 200 },
    );
  });

  it('numbers sessions of one agent live at the same time in order of start, and leaves the others unnumbered', () => {
    const identities = sessionIdentities(
      [
        session('b', 'claude-code', 5),
        session('a', 'claude-code', 1, 3),
        session('c', 'gemini-cli', 2),
        session('d', 'claude-code', 9, 20),
        session('e', 'claude-code', 30),
      ],
      colourCount,
    );
    // a ended before b started: alone. b and d were live together; e started after d ended, beside b.
    expect(['a', 'b', 'd', 'e'].map((id) => identities.get(id)?.number)).toEqual([undefined, 1, 2, 2]);
    expect(identities.get('c')?.number).toBeUndefined();
    expect(sessionLabel('claude-code', identities.get('d'))).toBe('claude-code #2');
    expect(sessionLabel('gemini-cli', identities.get('c'))).toBe('gemini-cli');
  });

  it('never gives two sessions of one agent live at the same time the same name', () => {
    fc.assert(
      fc.property(sessionsArbitrary, (sessions) => {
        const identities = sessionIdentities(sessions, colourCount);
        for (const left of sessions)
          for (const right of sessions) {
            if (left.id === right.id || left.agent !== right.agent || !liveTogether(left, right)) continue;
            const label = (one: SessionIdentityInput) => sessionLabel(one.agent, identities.get(one.id));
            expect(label(left)).not.toBe(label(right));
          }
      }),
      { seed: 6, numRuns: 300 },
    );
  });

  it('keeps a session its preferred colour (from its id) when no live session holds it', () => {
    const lone = session('ses_mwwalokc7ae82e0d60', 'hermes', 0);
    expect(sessionIdentities([lone], colourCount).get(lone.id)?.colour).toBe(preferredColour(lone.id, colourCount));
    expect(preferredColour('ses_mwwalokc7ae82e0d60', colourCount)).toBe(6);
  });

  it('frees the colour of a session that ended before the next one started', () => {
    // Two ids that prefer the same colour.
    const ids = Array.from({ length: 200 }, (_, index) => `ses_${index}`);
    const first = ids[0] ?? '';
    const twin = ids.find(
      (id) => id !== first && preferredColour(id, colourCount) === preferredColour(first, colourCount),
    );
    expect(twin).toBeDefined();
    const sequential = sessionIdentities([session(first, 'x', 0, 5), session(twin ?? '', 'x', 10)], colourCount);
    expect(sequential.get(twin ?? '')?.colour).toBe(preferredColour(first, colourCount));
    const together = sessionIdentities([session(first, 'x', 0), session(twin ?? '', 'x', 10)], colourCount);
    expect(together.get(twin ?? '')?.colour).not.toBe(together.get(first)?.colour);
  });
});
