// Templates of an auto-initialised repository's first commit, and how adoption picks a
// default branch: rules over the shipped catalog (vendored gitignores, spdx-license-list).
import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@anvil/kit';
import { checkTemplateNames, fillLicense, gitignoreNamesOf, initialFiles } from '../src/domain/repo-templates.js';
import { defaultBranchOf } from '../src/domain/unadopted.js';
import { templateCatalog } from '../src/git/init-files.js';

const catalog = templateCatalog();
const values = { name: 'parser', description: 'A fast parser', owner: 'ada', email: 'ada@example.com', year: '2026' };

function errorOf(fn: () => void): DomainError {
  try {
    fn();
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected an error');
}

describe('the template catalog', () => {
  it('ships the common gitignore templates under Gitea\'s names', () => {
    expect(catalog.gitignoreNames()).toEqual(expect.arrayContaining(['C', 'C++', 'Go', 'Java', 'JetBrains', 'Node', 'Python', 'Rust', 'VisualStudioCode', 'Windows', 'macOS']));
    expect(catalog.gitignore('Node')).toContain('node_modules/');
    expect(catalog.gitignore('node')).toBeUndefined();
  });

  it('lists every SPDX license with the preferred ones first', () => {
    const names = catalog.licenseNames();
    expect(names.slice(0, 2)).toEqual(['Apache-2.0', 'MIT']);
    expect(names.length).toBeGreaterThan(500);
    expect(names).toContain('GPL-3.0-only');
    expect(new Set(names).size).toBe(names.length);
    expect(catalog.license('MIT')).toContain('Permission is hereby granted');
    expect(catalog.license('toString')).toBeUndefined();
    expect(catalog.license('NOT-A-LICENSE')).toBeUndefined();
  });
});

describe('the initial commit\'s files', () => {
  it('writes only the README when no template is named', () => {
    expect(initialFiles(catalog, { readme: 'Default', gitignores: '', license: '' }, values)).toEqual({ 'README.md': '# parser\n\nA fast parser\n' });
  });

  it('joins gitignore templates in the order named, each under Gitea\'s header', () => {
    const files = initialFiles(catalog, { readme: '', gitignores: 'Node,Go', license: '' }, values);
    expect(files['.gitignore']).toBe(`# ---> Node\n${catalog.gitignore('Node')}\n# ---> Go\n${catalog.gitignore('Go')}\n`);
    expect(gitignoreNamesOf(' Node , Go ,')).toEqual(['Node', 'Go']);
  });

  it('fills the MIT license\'s year and copyright holder', () => {
    const license = initialFiles(catalog, { readme: '', gitignores: '', license: 'MIT' }, values).LICENSE;
    expect(license).toContain('Copyright (c) 2026 ada\n');
    expect(license).not.toMatch(/<year>|<copyright holders>/);
    expect(license.endsWith('USE OR OTHER DEALINGS IN THE SOFTWARE.\n')).toBe(true);
  });

  it('fills Apache-2.0\'s bracketed placeholders and GPL\'s program line', () => {
    expect(fillLicense('Apache-2.0', catalog.license('Apache-2.0')!, values)).toContain('Copyright 2026 ada');
    const gpl = fillLicense('GPL-3.0-or-later', catalog.license('GPL-3.0-or-later')!, values);
    expect(gpl).not.toContain('<year>');
    expect(gpl).toContain('Copyright (C) 2026  ada');
    expect(gpl).toContain('\n     parser\n');
  });

  it('fills 0BSD only on its copyright line, where AUTHOR is a placeholder', () => {
    const text = fillLicense('0BSD', catalog.license('0BSD')!, values);
    expect(text).toContain('Copyright (C) 2026 by ada ada@example.com');
    expect(text).toContain('THE AUTHOR DISCLAIMS');
  });
});

describe('template names on creation', () => {
  it('accepts known names', () => {
    expect(() => checkTemplateNames(catalog, { readme: 'Default', gitignores: 'Node,Go', license: 'MIT' })).not.toThrow();
    expect(() => checkTemplateNames(catalog, { readme: '', gitignores: '', license: '' })).not.toThrow();
  });

  it('refuses an unknown readme with Gitea\'s 400 message', () => {
    const err = errorOf(() => checkTemplateNames(catalog, { readme: 'Fancy', gitignores: '', license: '' }));
    expect([err.kind, err.message]).toEqual(['bad_request', 'readme template does not exist, available templates: [Default]']);
  });

  it('refuses an unknown gitignore or license with 422', () => {
    const gitignore = errorOf(() => checkTemplateNames(catalog, { readme: '', gitignores: 'Node,Cobol-Deluxe', license: '' }));
    expect([gitignore.kind, gitignore.message]).toEqual(['invalid', 'gitignore template does not exist: Cobol-Deluxe']);
    const license = errorOf(() => checkTemplateNames(catalog, { readme: '', gitignores: '', license: '../../etc/passwd' }));
    expect([license.kind, license.message]).toEqual(['invalid', 'license template does not exist: ../../etc/passwd']);
  });
});

describe('the default branch of adopted git data', () => {
  it('keeps the branch HEAD names when it exists', () => {
    expect(defaultBranchOf('trunk', ['main', 'trunk'], 'main')).toEqual({ branch: 'trunk', empty: false });
  });

  it('falls back as Gitea does: the configured default, master, main, then the first branch', () => {
    expect(defaultBranchOf('gone', ['dev', 'main', 'master'], 'main')).toEqual({ branch: 'main', empty: false });
    expect(defaultBranchOf('gone', ['dev', 'main', 'master'], 'develop')).toEqual({ branch: 'master', empty: false });
    expect(defaultBranchOf(undefined, ['dev', 'feature'], 'main')).toEqual({ branch: 'dev', empty: false });
  });

  it('is empty on the configured default when there is no branch', () => {
    expect(defaultBranchOf('main', [], 'main')).toEqual({ branch: 'main', empty: true });
  });
});
