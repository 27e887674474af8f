// The files an auto-initialised repository's first commit holds, as Gitea's
// prepareRepoCommit writes them: README.md from the readme template, .gitignore from the
// named gitignore templates joined in the order given, LICENSE from an SPDX license text
// with its placeholders (year, owner, e-mail, program) filled in. Template names are
// looked up in a catalog (src/git/init-files.ts), never used as paths.
import { DomainError, invalid } from '@anvil/kit';
import { defaultReadme } from './repository.js';

/** Where templates come from: vendored gitignore files and the spdx-license-list texts. */
export interface TemplateCatalog {
  gitignoreNames(): readonly string[];
  /** The template's text; undefined for an unknown name (names are case-sensitive, as in Gitea). */
  gitignore(name: string): string | undefined;
  /** Preferred licenses first, then every SPDX id in byte order (Gitea's LoadRepoConfig). */
  licenseNames(): readonly string[];
  /** The license text with its placeholders unfilled; undefined for an unknown SPDX id. */
  license(key: string): string | undefined;
}

/** Gitea ships one readme template. */
export const README_TEMPLATES: readonly string[] = ['Default'];

export interface InitialFilesOptions {
  readme: string;
  /** Comma-separated gitignore template names ('' for none). */
  gitignores: string;
  /** An SPDX id ('' for none). */
  license: string;
}

export interface InitialFileValues {
  /** The repository's name and description (README) and program name (LICENSE). */
  name: string;
  description: string;
  /** The owner's login: the copyright holder. */
  owner: string;
  /** The committer's e-mail (Gitea uses the owner's git signature). */
  email: string;
  year: string;
}

/** The names in a `gitignores` option; blanks around names and empty entries are ignored. */
export function gitignoreNamesOf(value: string): string[] {
  return value.split(',').map((n) => n.trim()).filter((n) => n.length > 0);
}

/**
 * Refuses unknown template names before anything is created: the readme with Gitea's 400
 * and its message; gitignores and licenses with 422 (Gitea fails those with a 500 deep in
 * the commit; an unknown name is bad input, like its unknown label template, which is 422).
 */
export function checkTemplateNames(catalog: TemplateCatalog, options: InitialFilesOptions): void {
  const readme = options.readme || 'Default';
  if (!README_TEMPLATES.includes(readme)) {
    throw new DomainError('bad_request', `readme template does not exist, available templates: [${README_TEMPLATES.join(' ')}]`, 'readme_template_not_found');
  }
  for (const name of gitignoreNamesOf(options.gitignores)) {
    if (catalog.gitignore(name) === undefined) throw invalid(`gitignore template does not exist: ${name}`, 'gitignore_template_not_found');
  }
  if (options.license && catalog.license(options.license) === undefined) {
    throw invalid(`license template does not exist: ${options.license}`, 'license_template_not_found');
  }
}

/** Path → content of the initial commit's files; call checkTemplateNames first. */
export function initialFiles(catalog: TemplateCatalog, options: InitialFilesOptions, values: InitialFileValues): Record<string, string> {
  const files: Record<string, string> = { 'README.md': defaultReadme(values.name, values.description) };
  const gitignores = gitignoreNamesOf(options.gitignores);
  if (gitignores.length) {
    // Gitea: "# ---> <name>" before each template, a blank line after it.
    files['.gitignore'] = gitignores.map((name) => `# ---> ${name}\n${catalog.gitignore(name) ?? ''}\n`).join('');
  }
  if (options.license) {
    files.LICENSE = fillLicense(options.license, catalog.license(options.license) ?? '', values);
  }
  return files;
}

interface Placeholders {
  owner: string[];
  email: string[];
  repo: string[];
  year: string[];
  /** Only lines matching this are filled (0BSD names AUTHOR elsewhere in its text). */
  line?: RegExp;
}

// Gitea's getLicensePlaceholder: words that stand for a value in the SPDX texts.
const UNIVERSAL: Placeholders = {
  owner: [
    '<name of author>', '<owner>', '[NAME]', '[name of copyright owner]', '[name of copyright holder]',
    '<COPYRIGHT HOLDERS>', '<copyright holders>', '<AUTHOR>', "<author's name or designee>",
    '[one or more legally recognised persons or entities offering the Work under the terms and conditions of this Licence]',
  ],
  email: ['[EMAIL]'],
  repo: ['<program>', "<one line to give the program's name and a brief idea of what it does.>"],
  year: ['<year>', '[YEAR]', '{YEAR}', '[yyyy]', '[Year]', '[year]'],
};

const SPECIAL: Record<string, Placeholders> = {
  '0BSD': { owner: ['AUTHOR'], email: ['EMAIL'], repo: [], year: ['YEAR'], line: /Copyright \(C\) YEAR by AUTHOR EMAIL/ },
};

/** The license text with its placeholders filled, line by line, each line ending in "\n" (as Gitea writes it). */
export function fillLicense(key: string, text: string, values: InitialFileValues): string {
  const p = SPECIAL[key] ?? UNIVERSAL;
  const lines = text.split(/\r?\n/);
  // Gitea's line scanner yields no empty last line for a text ending in a newline.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => {
    if (p.line && !p.line.test(line)) return `${line}\n`;
    let out = line;
    for (const word of p.owner) out = out.split(word).join(values.owner);
    for (const word of p.email) out = out.split(word).join(values.email);
    for (const word of p.repo) out = out.split(word).join(values.name);
    for (const word of p.year) out = out.split(word).join(values.year);
    return `${out}\n`;
  }).join('');
}
