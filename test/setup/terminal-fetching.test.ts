import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { fetchPerson, TERMINAL_WORKSPACE } from '../../src/setup/terminal-fetching.ts';

/** Whom a terminal's fetches count against (MEMDOCTOR_FETCH_AS), as docs/connectors.md says. */
describe('fetchPerson', () => {
  const osUser = () => 'alice';

  it('unset: the OS user, in the terminal workspace, apart from every Slack workspace', () => {
    expect(fetchPerson(loadConfig({}), osUser)).toEqual({ workspace: TERMINAL_WORKSPACE, user: 'alice' });
  });

  it('a plain name is that terminal person, on whichever machine it is typed', () => {
    expect(fetchPerson(loadConfig({ MEMDOCTOR_FETCH_AS: 'alice.smith' }), osUser)).toEqual({
      workspace: TERMINAL_WORKSPACE,
      user: 'alice.smith',
    });
  });

  it('a Slack TEAM:MEMBER pair is that Slack person, as serve counts them', () => {
    expect(fetchPerson(loadConfig({ MEMDOCTOR_FETCH_AS: 'T0123ABCD:U0456EFGH' }), osUser)).toEqual({
      workspace: 'T0123ABCD',
      user: 'U0456EFGH',
    });
  });

  it('anything else stops with the variable named and what it takes', () => {
    for (const bad of ['a:b:c', 'alice smith', 'T1:', ':U1'])
      expect(() => loadConfig({ MEMDOCTOR_FETCH_AS: bad })).toThrow(
        /a name, or a Slack TEAM:MEMBER pair[\s\S]*MEMDOCTOR_FETCH_AS/,
      );
  });
});
