import assert from 'node:assert/strict';
import { matchesTerms, queryTerms, wordsOf } from '../../../../../src/core/tools/repoMap/query';

describe('repo_map query matching', () => {
  it('splits camelCase, PascalCase acronyms, snake_case and paths into lowercase words', () => {
    assert.deepEqual(wordsOf('parseHTTPRequest'), ['parse', 'http', 'request']);
    assert.deepEqual(wordsOf('load_rules_v2'), ['load', 'rules', 'v2']);
    assert.deepEqual(wordsOf('src/core/hashEdit/plan.ts'), ['src', 'core', 'hash', 'edit', 'plan', 'ts']);
  });

  it('drops one-character words and duplicates from the query', () => {
    assert.deepEqual(queryTerms('a Session  session_replay x'), ['session', 'replay']);
    assert.deepEqual(queryTerms(undefined), []);
  });

  it('matches a whole word, or for words of 4+ characters a part of the joined name', () => {
    assert.equal(matchesTerms('SessionStore', ['session']), true);
    assert.equal(matchesTerms('hashEdit', ['hashedit']), true);
    assert.equal(matchesTerms('grep_engine', ['ep']), false, 'a short term needs a whole word');
    assert.equal(matchesTerms('run_ep', ['ep']), true);
    assert.equal(matchesTerms('Settings', ['session']), false);
    assert.equal(matchesTerms('anything', []), false);
  });
});
