import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { configValue, expandPath, findRepo, globalExcludesFile } from '../../../../src/core/workspace/gitConfig';
import { ListingCache } from '../../../../src/core/workspace/listingCache';
import { isolatedEnvironment, tempDir, writeTree } from '../../helpers/tree';

describe('git configuration, read without git', () => {
  describe('configValue', () => {
    const excludes = (text: string) => configValue(text, 'core', 'excludesfile');

    it('finds core.excludesFile with any case, spacing and quoting; the last one wins', () => {
      assert.equal(excludes('[core]\n\texcludesFile = ~/ignore\n'), '~/ignore');
      assert.equal(excludes('[CORE]\nEXCLUDESFILE=/a\n[core]\n  excludesfile   =   "/b c"  \n'), '/b c');
      assert.equal(excludes('[core] excludesfile = /same-line\n'), '/same-line');
      assert.equal(excludes('[core]\nexcludesfile = "/q\\"uote\\\\d" # comment\n'), '/q"uote\\d');
      assert.equal(excludes('[core]\nexcludesfile = /a ; comment\n'), '/a');
      assert.equal(excludes('[core]\nexcludesfile = /long\\\n-path\n'), '/long-path', 'a trailing backslash continues the line');
      assert.equal(excludes('[core]\r\nexcludesfile = /crlf\r\n'), '/crlf');
    });

    it('ignores other sections, subsections, comments and boolean keys', () => {
      assert.equal(excludes('[user]\nexcludesfile = /no\n'), undefined);
      assert.equal(excludes('[core "sub"]\nexcludesfile = /no\n[core.sub]\nexcludesfile = /no\n'), undefined);
      assert.equal(excludes('# [core]\n; excludesfile = /no\n[core]\nbare\nexcludesfile\n'), undefined);
      assert.equal(excludes('[core]\nexcludesfilex = /no\nxexcludesfile = /no\n'), undefined);
      assert.equal(excludes('[include]\npath = other\n[core]\nautocrlf = false\n'), undefined);
    });
  });

  it('expandPath expands ~ and resolves relative paths from the base', () => {
    assert.equal(expandPath('~', '/home/u', '/repo'), '/home/u');
    assert.equal(expandPath('~/x/y', '/home/u', '/repo'), '/home/u/x/y');
    assert.equal(expandPath('rel/ignore', '/home/u', '/repo'), '/repo/rel/ignore');
    assert.equal(expandPath('/abs', '/home/u', '/repo'), '/abs');
  });

  describe('with files', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await tempDir();
    });
    afterEach(() => fsp.rm(dir, { recursive: true, force: true }));

    it('findRepo finds the nearest .git folder, or a .git file of a linked worktree and its common dir', async () => {
      await writeTree(dir, {
        'main/.git/info/exclude': '', 'main/a/b/': null,
        'wt/.git': 'gitdir: ../main/.git/worktrees/wt\n', 'main/.git/worktrees/wt/commondir': '../..\n',
      });
      const cache = new ListingCache();
      assert.deepEqual(findRepo(path.join(dir, 'main', 'a', 'b'), cache), { worktree: path.join(dir, 'main'), commonDir: path.join(dir, 'main', '.git'), gitDir: path.join(dir, 'main', '.git') });
      assert.deepEqual(findRepo(path.join(dir, 'wt'), cache), { worktree: path.join(dir, 'wt'), commonDir: path.join(dir, 'main', '.git'), gitDir: path.join(dir, 'main', '.git', 'worktrees', 'wt') });
    });

    it('globalExcludesFile: repository config over ~/.gitconfig over the XDG config, else the XDG default', async () => {
      const home = path.join(dir, 'home');
      const env = isolatedEnvironment(home, { XDG_CONFIG_HOME: path.join(dir, 'xdg') });
      const cache = new ListingCache({ racyMs: 0 });
      const repo = { worktree: path.join(dir, 'repo'), commonDir: path.join(dir, 'repo', '.git'), gitDir: path.join(dir, 'repo', '.git') };
      assert.equal(globalExcludesFile(env, repo, repo.worktree, cache), path.join(dir, 'xdg', 'git', 'ignore'));
      assert.equal(globalExcludesFile(isolatedEnvironment(home), undefined, dir, cache), path.join(home, '.config', 'git', 'ignore'));
      await writeTree(dir, { 'xdg/git/config': '[core]\nexcludesfile = /from-xdg\n' });
      assert.equal(globalExcludesFile(env, repo, repo.worktree, cache), '/from-xdg');
      await writeTree(dir, { 'home/.gitconfig': '[core]\nexcludesfile = ~/from-home\n' });
      assert.equal(globalExcludesFile(env, repo, repo.worktree, cache), path.join(home, 'from-home'));
      await writeTree(dir, { 'repo/.git/config': '[core]\nexcludesfile = relative-to-worktree\n' });
      assert.equal(globalExcludesFile(env, repo, repo.worktree, cache), path.join(dir, 'repo', 'relative-to-worktree'));
    });
  });
});
