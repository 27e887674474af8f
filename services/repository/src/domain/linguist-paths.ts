// Path rules for files linguist leaves out of a repository's language statistics. The
// linguist-languages package ships only the language table, so these follow a subset of
// linguist's own lib/linguist/vendor.yml, documentation.yml and generated.rb (path-based
// rules only; content-based ones are not applied). A `.gitattributes` override beats them.

/** linguist vendor.yml (subset): dependencies, build output, third-party code. */
export const VENDOR_PATTERNS: readonly RegExp[] = [
  /(^|\/)cache\//,
  /^[Dd]ependencies\//,
  /(^|\/)dist\//,
  /^deps\//,
  /(^|\/)configure$/,
  /(^|\/)config\.guess$/,
  /(^|\/)config\.sub$/,
  /(^|\/)node_modules\//,
  /(^|\/)bower_components\//,
  /(^|\/)[Vv]endors?\//,
  /(^|\/)(3rd|[Tt]hird)[-_]?[Pp]arty\//,
  /(^|\/)extern(al)?\//,
  /(^|\/)Godeps\/_workspace\//,
  /(^|\/)\.yarn\/(releases|plugins|sdks|versions)\//,
  /\.min\.(js|css)$/,
  /([^\s]*)import\.(css|less|scss|styl)$/,
  /(^|\/)jquery([^.]*)\.js$/,
  /(^|\/)bootstrap([^/.]*)(\..*)?\.(js|css|less|scss|styl)$/,
  /(^|\/)gradlew(\.bat)?$/,
  /(^|\/)mvnw(\.cmd)?$/,
  /(^|\/)\.github\//,
  /(^|\/)\.vscode\//,
  /(^|\/)\.idea\//,
];

/** linguist documentation.yml (subset). */
export const DOCUMENTATION_PATTERNS: readonly RegExp[] = [
  /^[Dd]ocs?\//,
  /(^|\/)[Dd]ocumentation\//,
  /(^|\/)[Gg]roovydoc\//,
  /(^|\/)[Jj]avadoc\//,
  /^[Mm]an\//,
  /^[Ee]xamples\//,
  /^[Dd]emos?\//,
  /(^|\/)inst\/doc\//,
  /(^|\/)CITATION(\.cff|(S)?(\.(bib|md))?)$/,
  /(^|\/)CHANGE(S|LOG)?(\.|$)/,
  /(^|\/)CONTRIBUTING(\.|$)/,
  /(^|\/)COPYING(\.|$)/,
  /(^|\/)INSTALL(\.|$)/,
  /(^|\/)LICEN[CS]E(\.|$)/,
  /(^|\/)[Ll]icen[cs]e(\.|$)/,
  /(^|\/)README(\.|$)/,
  /(^|\/)[Rr]eadme(\.|$)/,
  /^[Ss]amples?\//,
];

/** linguist generated.rb, the rules decided by the path alone. */
export const GENERATED_PATTERNS: readonly RegExp[] = [
  /(^|\/)package-lock\.json$/,
  /(^|\/)npm-shrinkwrap\.json$/,
  /(^|\/)yarn\.lock$/,
  /(^|\/)pnpm-lock\.yaml$/,
  /(^|\/)Cargo\.lock$/,
  /(^|\/)go\.sum$/,
  /(^|\/)composer\.lock$/,
  /(^|\/)Gemfile\.lock$/,
  /(^|\/)poetry\.lock$/,
  /\.pb\.go$/,
  /\.pb\.(cc|h)$/,
  /_pb2(_grpc)?\.py$/,
  /\.designer\.(cs|vb)$/,
  /\.(js|css)\.map$/,
  /(^|\/)__generated__\//,
];

export const isVendoredPath = (path: string) => VENDOR_PATTERNS.some((p) => p.test(path));
export const isDocumentationPath = (path: string) => DOCUMENTATION_PATTERNS.some((p) => p.test(path));
export const isGeneratedPath = (path: string) => GENERATED_PATTERNS.some((p) => p.test(path));
/** enry's IsDotFile: a file or directory whose name starts with a dot (`.eslintrc`, `.husky/x`). */
export const isDotFilePath = (path: string) => path.split('/').some((part) => part.startsWith('.') && part !== '.' && part !== '..');
