/**
 * The house plan (ARCHITECTURE.md) as checks over the source: imports go down the floors only, there is
 * no import circle, the api layer and the review core never import vscode, views bind no command,
 * and each rule of "Where a rule goes" and "Where a sentence goes" has its one home.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { Commands } from '../../src/constants';
import { TASK_OFFERS, allCapabilityWords } from '../../src/tasks/offers';

const SRC = path.resolve(__dirname, '../../../src');
const ROOT = path.resolve(SRC, '..');

/** Lower floors first. A module may import its own folder or a lower floor, never a higher or a sibling one. */
const FLOORS: { floor: number; folder: string; match: (rel: string) => boolean }[] = [
  { floor: 0, folder: 'api', match: r => r.startsWith('api/') },
  { floor: 1, folder: 'base', match: r => ['constants.ts', 'config.ts', 'settings.ts', 'log.ts', 'disposable.ts', 'ui.ts', 'format.ts', 'errors.ts', 'vocabulary.ts', 'lazy.ts'].includes(r) },
  { floor: 1, folder: 'review', match: r => r.startsWith('review/') },
  { floor: 2, folder: 'auth', match: r => r.startsWith('auth/') },
  { floor: 2, folder: 'parts', match: r => r === 'parts.ts' },
  { floor: 3, folder: 'apiService', match: r => r === 'apiService.ts' },
  { floor: 4, folder: 'tasks', match: r => r.startsWith('tasks/') },
  { floor: 5, folder: 'stores', match: r => r.startsWith('stores/') },
  { floor: 6, folder: 'documents', match: r => r.startsWith('documents/') },
  // The services the core builds (issue 42): below the views and commands, which take them as they are.
  { floor: 6.5, folder: 'services', match: r => r === 'services.ts' },
  { floor: 7, folder: 'views', match: r => r.startsWith('views/') },
  { floor: 7, folder: 'commands', match: r => r.startsWith('commands/') },
  { floor: 7, folder: 'chat', match: r => r.startsWith('chat/') },
  { floor: 7, folder: 'mcp', match: r => r.startsWith('mcp/') },
  { floor: 8, folder: 'root', match: r => ['main.ts', 'extension.ts', 'core.ts', 'standIns.ts', 'addressGuard.ts', 'walkthrough.ts', 'scratchWindow.ts'].includes(r) },
];

function sources(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

const rel = (file: string) => path.relative(SRC, file).split(path.sep).join('/');

function floorOf(file: string) {
  const r = rel(file);
  const found = FLOORS.find(f => f.match(r));
  assert.ok(found, `${r} is on no floor: add it to ARCHITECTURE.md and to FLOORS here`);
  return found;
}

/** Relative imports (static, type-only and `export … from`) resolved to source files. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)].map(m => m[1]);
  return specs.map(spec => {
    const base = path.resolve(path.dirname(file), spec);
    const candidate = [`${base}.ts`, path.join(base, 'index.ts')].find(p => fs.existsSync(p));
    assert.ok(candidate, `${rel(file)} imports ${spec}, which does not exist`);
    return candidate;
  });
}

describe('architecture', () => {
  const files = sources();
  const graph = new Map(files.map(f => [f, importsOf(f)]));

  it('finds the sources', () => {
    assert.ok(files.length > 40, `${files.length} files under ${SRC}`);
    assert.ok(graph.get(path.join(SRC, 'extension.ts'))!.length > 10);
  });

  it('imports go down the floors only (or stay in their own folder)', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      const from = floorOf(file);
      for (const target of imports) {
        const to = floorOf(target);
        if (to.folder !== from.folder && to.floor >= from.floor) wrong.push(`${rel(file)} (${from.folder}) → ${rel(target)} (${to.folder})`);
      }
    }
    assert.deepStrictEqual(wrong, []);
  });

  it('has no import circle', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const circles: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        circles.push([...trail.slice(trail.indexOf(file)), file].map(rel).join(' → '));
        return;
      }
      state.set(file, 'visiting');
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    assert.deepStrictEqual(circles, []);
  });

  it('one shape, one declaration: no two files declare a type, interface, class or function of one name (issue 28)', () => {
    // One name, two meanings (not a copied shape): each pair is a different thing on a different floor.
    const TWO_MEANINGS: Record<string, string> = {
      Proposal: 'review/answer.ts (a file an answer changes) and documents/proposals.ts (an Apply to Source diff)',
      Budget: 'review/diff.ts (work a diff may do) and api/trace.ts (characters a trace may keep)',
      downloadStopped: 'vocabulary.ts (the sentence) and errors.ts (the error that carries it)',
      uploadRefusal: 'api/multipart.ts (the api error) and errors.ts (the user-facing error)',
    };
    const declared = new Map<string, string[]>();
    const declaration = /^(?:export )?(?:(?:interface|type|class|(?:async )?function\*?) ([A-Za-z_]\w*)|const ([A-Za-z_]\w*) = (?:async )?\()/gm;
    for (const file of files) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(declaration)) {
        const name = m[1] ?? m[2];
        declared.set(name, [...(declared.get(name) ?? []), rel(file)]);
      }
    }
    const twice = [...declared].filter(([name, where]) => where.length > 1 && !TWO_MEANINGS[name]).map(([name, where]) => `${name}: ${where.join(', ')}`);
    assert.deepStrictEqual(twice, []);
    // A shape written inline instead of named: a range record's fields are declared once (review/planTypes.ts).
    const rangeShapes = files.filter(f => /startCharacter: number/.test(fs.readFileSync(f, 'utf8'))).map(rel);
    assert.deepStrictEqual(rangeShapes, ['review/planTypes.ts']);
  });

  it('one shape, one declaration, by its fields too: no two files declare an interface with the same fields, or the same union of literals (issue 36)', () => {
    // Names differ where a shape was restated (`Pos` beside `Position`, `Kind` beside `BlockKind`): compare what they hold.
    const shapes = new Map<string, string[]>();
    const add = (shape: string, where: string) => shapes.set(shape, [...(shapes.get(shape) ?? []), where]);
    for (const file of files) {
      const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      for (const statement of source.statements) {
        if (ts.isInterfaceDeclaration(statement) && !statement.heritageClauses && !statement.typeParameters) {
          const fields = statement.members.map(m => `${m.name?.getText(source)}${m.questionToken ? '?' : ''}: ${ts.isPropertySignature(m) ? (m.type?.getText(source) ?? '') : 'method'}`);
          if (fields.length >= 2) add(`{ ${fields.sort().join('; ')} }`, `${rel(file)} ${statement.name.text}`);
        }
        if (ts.isTypeAliasDeclaration(statement) && ts.isUnionTypeNode(statement.type) && statement.type.types.every(t => ts.isLiteralTypeNode(t))) {
          if (statement.type.types.length >= 3) add(statement.type.types.map(t => t.getText(source)).sort().join(' | '), `${rel(file)} ${statement.name.text}`);
        }
      }
    }
    const twice = [...shapes].filter(([, where]) => new Set(where.map(w => w.split(' ')[0])).size > 1).map(([shape, where]) => `${where.join(', ')}: ${shape}`);
    assert.deepStrictEqual(twice, []);
  });

  it('a part loaded on first use (lazy.ts) is named by other modules with `import type` only, and is bundled on its own', () => {
    const parts = [...fs.readFileSync(path.join(SRC, 'lazy.ts'), 'utf8').matchAll(/^\s+(\w+): '([\w/]+)',$/gm)].map(m => ({ part: m[1], file: path.join(SRC, `${m[2]}.ts`) }));
    assert.deepStrictEqual(parts.map(p => p.part), ['api', 'checking', 'commands', 'core', 'mcp', 'results', 'review', 'transcripts', 'usage']);
    const loadedAtOnce: string[] = [];
    // The review core is its folder: a value import of any of its modules from outside it would load it at once.
    const reviewDir = path.join(SRC, 'review');
    // The command handlers are their folder too, but for what the core reaches them through (onFirstUse.ts, run.ts).
    const commandsDir = path.join(SRC, 'commands');
    const atActivation = ['onFirstUse', 'run'].map(f => path.join(commandsDir, f));
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^\s*(import|export)\s(type\s)?[^;]*?from\s+'(\.[^']+)'/gms)) {
        const target = path.resolve(path.dirname(file), m[3]);
        const part = parts.find(p => p.file === `${target}.ts` || p.file === path.join(target, 'index.ts'));
        if (part && !m[2] && !parts.some(p => p.file === file)) loadedAtOnce.push(`${rel(file)} → ${rel(part.file)}`);
        const intoReview = (target === reviewDir || target.startsWith(reviewDir + path.sep)) && !file.startsWith(reviewDir + path.sep);
        if (intoReview && !m[2]) loadedAtOnce.push(`${rel(file)} → ${path.relative(SRC, target)}`);
        const fromActivation = !file.startsWith(commandsDir + path.sep) || atActivation.some(a => file === `${a}.ts`);
        const intoHandlers = target.startsWith(commandsDir + path.sep) && !atActivation.includes(target);
        if (fromActivation && intoHandlers && !m[2]) loadedAtOnce.push(`${rel(file)} → ${path.relative(SRC, target)}`);
      }
    }
    assert.deepStrictEqual(loadedAtOnce, []);
  });

  it('the checking part (issue 42) loads with the first check: outside tasks/checking/, only its shapes, policy, store and sweep are imported for a value', () => {
    const checkingDir = path.join(SRC, 'tasks', 'checking');
    // What the core and the views use of it; the rest (session, copy, runner, detection, feedback) is the part.
    const inCore = ['policy', 'store', 'sweep', 'types'].map(f => path.join(checkingDir, f));
    const offenders: string[] = [];
    for (const file of files) {
      const inside = file.startsWith(checkingDir + path.sep);
      // Inside, the core's three modules must not pull the part in either.
      if (inside && !inCore.some(c => file === `${c}.ts`)) continue;
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/^\s*(import|export)\s(type\s)?[^;]*?from\s+'(\.[^']+)'/gms)) {
        const target = path.resolve(path.dirname(file), m[3]);
        if (m[2] || !target.startsWith(checkingDir + path.sep) || inCore.includes(target)) continue;
        offenders.push(`${rel(file)} → ${path.relative(SRC, target)}`);
      }
    }
    assert.deepStrictEqual(offenders, []);
  });

  it('the house stays tidy (issue 42): no source file over 400 lines but the sentences table, no function over 100 lines', () => {
    const MAX_FILE_LINES = 400;
    const MAX_FUNCTION_LINES = 100;
    const long = files.filter(f => rel(f) !== 'vocabulary.ts').map(f => [rel(f), fs.readFileSync(f, 'utf8').split('\n').length] as const).filter(([, n]) => n > MAX_FILE_LINES);
    const longFunctions: string[] = [];
    for (const file of files) {
      const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
          const name = (node as ts.FunctionLikeDeclaration).name?.getText(source) ?? '(anonymous)';
          if (lines > MAX_FUNCTION_LINES) longFunctions.push(`${rel(file)}: ${name}, ${lines} lines`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    assert.deepStrictEqual([...long.map(([f, n]) => `${f}: ${n} lines`), ...longFunctions], []);
  });

  it('the MCP SDK is loaded only in the MCP bundle, and its protocol half knows no vscode', () => {
    const sdk = files.filter(f => /@modelcontextprotocol\/sdk/.test(fs.readFileSync(f, 'utf8'))).map(rel);
    assert.deepStrictEqual(sdk, ['mcp/server.ts']);
    for (const name of ['mcp/server.ts', 'mcp/protocol.ts']) {
      assert.doesNotMatch(fs.readFileSync(path.join(SRC, name), 'utf8'), /from\s+'vscode'/, name);
    }
    const extension = fs.readFileSync(path.join(SRC, 'mcp/index.ts'), 'utf8');
    assert.doesNotMatch(extension, /^import (?!type)[^;]*from '\.\/(tools|server|bundle)'/m, 'mcp/index.ts loads the bundle at run time only');
  });

  it('the api layer never imports vscode', () => {
    const offenders = files.filter(f => rel(f).startsWith('api/') && /from\s+'vscode'|require\('vscode'\)/.test(fs.readFileSync(f, 'utf8')));
    assert.deepStrictEqual(offenders.map(rel), []);
  });

  it('the review core is pure: no vscode, and nothing outside its own folder', () => {
    const review = files.filter(f => rel(f).startsWith('review/'));
    assert.ok(review.length >= 5, review.map(rel).join(', '));
    const offenders = review.filter(f => /from\s+'vscode'|require\('vscode'\)|import\('vscode'\)/.test(fs.readFileSync(f, 'utf8')));
    assert.deepStrictEqual(offenders.map(rel), []);
    const outside = review.flatMap(f => graph.get(f)!.filter(t => !rel(t).startsWith('review/')).map(t => `${rel(f)} → ${rel(t)}`));
    assert.deepStrictEqual(outside, []);
  });

  it('views bind no command; the sidebar answers only its own refresh and load-more', () => {
    const bound = files.filter(f => rel(f).startsWith('views/') && /registerCommand\(/.test(fs.readFileSync(f, 'utf8')));
    assert.deepStrictEqual(bound.map(rel), []);
    const sidebar = fs.readFileSync(path.join(SRC, 'views/trees/sidebar.ts'), 'utf8');
    const answered = [...sidebar.matchAll(/^\s+\[(Commands\.\w+)\]:/gm)].map(m => m[1]);
    assert.ok(answered.length >= 3, `the sidebar answers its refresh commands: ${answered.join(', ')}`);
    assert.deepStrictEqual(answered.filter(id => !/^Commands\.(refresh|loadMore)\w+$/.test(id)), []);
  });

  it('every command is registered in standIns.ts only (a stand-in that loads the core), action handlers live in commands/index.ts', () => {
    const registering = files.filter(f => /registerCommand\(/.test(fs.readFileSync(f, 'utf8')));
    assert.deepStrictEqual(registering.map(rel), ['standIns.ts']);
  });

  describe('package.json follows the table of what a task offers (tasks/offers.ts, issue 28)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      contributes: { commands: { command: string; title: string; icon?: string }[]; menus: Record<string, { command: string; when?: string; group?: string }[]> };
    };
    const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const itemMenus = manifest.contributes.menus['view/item/context'].filter(m => /\bview == multiAgent\.tasks\b/.test(m.when ?? ''));
    const taskMenus = itemMenus.filter(m => TASK_OFFERS.some(o => o.command === m.command));
    const wordOf = (when = '') => /viewItem =~ \/\\b(\w+)\\b\//.exec(when)?.[1];

    it('every viewItem word of the Tasks view\'s menus is one the table can produce, on its own action\'s menu', () => {
      assert.ok(taskMenus.length >= TASK_OFFERS.length, `${taskMenus.length} menu entries`);
      const words = new Set(allCapabilityWords());
      const wrong = taskMenus
        .filter(m => { const w = wordOf(m.when); return !w || !words.has(w) || TASK_OFFERS.find(o => o.id === w)?.command !== m.command; })
        .map(m => `${m.command}: ${m.when}`);
      assert.deepStrictEqual(wrong, [], 'a task\'s menu entry matches one capability word: viewItem =~ /\\bword\\b/');
      // Other rows of the Tasks view (attachments, produced files) are named whole, so no task word matches them.
      for (const m of itemMenus.filter(m => !taskMenus.includes(m))) assert.match(m.when ?? '', /viewItem == [\w.]+$/, m.command);
    });

    it('every action the table shows in the Tasks view has its menu entry (inline where it is inline)', () => {
      const missing: string[] = [];
      for (const o of TASK_OFFERS) {
        const surfaces: readonly string[] = o.surfaces;
        const entries = taskMenus.filter(m => m.command === o.command);
        if (surfaces.includes('tree') && !entries.some(m => !m.group?.startsWith('inline'))) missing.push(`${o.id}: menu`);
        if (surfaces.includes('treeInline') !== entries.some(m => m.group?.startsWith('inline'))) missing.push(`${o.id}: inline`);
        if (!surfaces.includes('tree') && !surfaces.includes('treeInline') && entries.length) missing.push(`${o.id}: not in the Tasks view`);
      }
      assert.deepStrictEqual(missing, []);
    });

    it('one label per action: the table\'s label is its command\'s title, its icon the command\'s icon', () => {
      const wrong: string[] = [];
      for (const o of TASK_OFFERS) {
        const command = manifest.contributes.commands.find(c => c.command === o.command);
        const title = command && nls[command.title.replace(/^%|%$/g, '')];
        if (title !== o.label) wrong.push(`${o.id}: "${o.label}" in the table, "${title}" in package.nls.json`);
        const icon: string | undefined = (o as { icon?: string }).icon;
        if (icon && command?.icon !== `$(${icon})`) wrong.push(`${o.id}: icon ${icon}, ${command?.icon} in package.json`);
      }
      assert.deepStrictEqual(wrong, []);
    });
  });

  describe('each rule has one home (ARCHITECTURE.md, "Where a rule goes")', () => {
    /** Source text without comments, so a comment that names a rule is not taken for the rule. */
    const code = (file: string) =>
      fs
        .readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
    /** Files outside the api layer (it has no vscode and its own English details) whose code matches. */
    const where = (pattern: RegExp, except: string[] = []) =>
      files
        .filter(f => !rel(f).startsWith('api/') && !except.includes(rel(f)))
        .filter(f => pattern.test(code(f)))
        .map(rel);

    it('only config.ts reads settings or follows their changes and trust grants', () => {
      assert.deepStrictEqual(where(/getConfiguration\(|onDidChangeConfiguration|onDidGrantWorkspaceTrust|workspace\.isTrusted|readSettings\(/, ['config.ts']), []);
    });

    it('only ApiService builds an API client', () => {
      assert.deepStrictEqual(where(/DeveloperApiClient\s*\)?\s*\(/, ['apiService.ts']), []);
    });

    it('only the vocabulary words the conditions met in several places', () => {
      // Phrases of those sentences, inside string literals.
      const phrases = /rate limit|earlier API form|rejected (the|this) (API )?key|could not be reached|Cannot reach the service|\d\s?[KMG]i?B\b|no longer knows this task|keeps answering the status check|too large to download inline|sent no result|failed on the service|was canceled on the service|API key is needed|Developer API key (first|is set)/i;
      const literals = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;
      const offenders = files
        .filter(f => !rel(f).startsWith('api/') && rel(f) !== 'vocabulary.ts')
        .flatMap(f => (code(f).match(literals) ?? []).filter(text => phrases.test(text)).map(text => `${rel(f)}: ${text}`));
      assert.deepStrictEqual(offenders, []);
    });

    it('prompts are counted one way, fences built one way, lists paged one way', () => {
      assert.deepStrictEqual(where(/\.length\s*[<>]=?\s*LIMITS\.promptMaxChars|LIMITS\.promptMaxChars\s*[<>]=?\s*[\w.]+\.length/), [], 'prompt length is promptLength()');
      assert.deepStrictEqual(where(/'`'\.repeat\(/, ['tasks/sending/prompt.ts']), [], 'fences come from fencedBlock()');
      assert.deepStrictEqual(
        files.filter(f => rel(f).startsWith('stores/') && rel(f) !== 'stores/paging.ts' && /\boffset\b/.test(code(f))).map(rel),
        [],
        'stores page through PagedList',
      );
    });

    it('answers are read by one reader: no fence scanner outside review/fences.ts (issue 24)', () => {
      // What a fence scanner is made of: a regex for a run of backticks or tildes, a comparison with the
      // character codes of ` (96) or ~ (126), a string of three backticks or tildes looked for or compared.
      const scanner = fenceScannerPattern();
      const offenders = files
        .filter(f => !FENCE_READERS.includes(rel(f)))
        .flatMap(f => code(f).split('\n').flatMap((line, i) => (scanner.test(line) ? [`${rel(f)}:${i + 1}: ${line.trim()}`] : [])));
      assert.deepStrictEqual(offenders, [], 'read blocks with readAnswer() (review/reader.ts) / fenceMask() (review/fences.ts)');
      // The check itself: each way of writing a scanner is caught.
      for (const sample of [
        "const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);",
        "if (line.startsWith('```')) open = !open;",
        'if (text.charCodeAt(i) === 96 && text.charCodeAt(i + 1) === 96) n++;',
        "const isFence = line.trim().slice(0, 3) === '~~~';",
        "const parts = text.split('```');",
        'const m = new RegExp("^[`~]{3,}").exec(line);',
      ]) {
        assert.ok(scanner.test(sample), `not caught: ${sample}`);
      }
      // …and code that only builds a fence or speaks of one in a sentence is not.
      assert.ok(!scanner.test("return `${fence}${language}\\n${code}${fence}`;"));
    });

    it('one helper picks the editor group of the extension\'s tabs (issue 20: columns do not pile up)', () => {
      assert.deepStrictEqual(where(/ViewColumn\.Beside/, ['documents/editorGroups.ts']), []);
    });

    it('what a task offers has one home: its command ids are named in commands/index.ts, constants.ts and tasks/offers*.ts only (issue 28)', () => {
      const keys = Object.entries(Commands).filter(([, id]) => TASK_OFFERS.some(o => o.command === id));
      assert.equal(keys.length, TASK_OFFERS.length, 'every row runs a command of constants.ts');
      const names = new RegExp(`\\bCommands\\.(${keys.map(([k]) => k).join('|')})\\b|['"\`](${keys.map(([, id]) => id.replace('.', '\\.')).join('|')})['"\`]`);
      const home = (r: string) => r === 'commands/index.ts' || r === 'constants.ts' || /^tasks\/offers\w*\.ts$/.test(r);
      const offenders = files.filter(f => !home(rel(f))).flatMap(f => code(f).split('\n').flatMap((line, i) => (names.test(line) ? [`${rel(f)}:${i + 1}: ${line.trim()}`] : [])));
      assert.deepStrictEqual(offenders, [], 'ask tasks/offers.ts: offersOf(task, surface), or offer(id).command');
      // The check itself: both ways of naming one are caught, a command of no row is not.
      assert.ok(names.test('stream.button({ command: Commands.reviewChanges, title });'));
      assert.ok(names.test("await vscode.commands.executeCommand('multiAgent.cancelTask', id);"));
      assert.ok(!names.test('bind(Commands.refreshTasks, () => tree.refresh());'));
    });

    it('how a result opens (multiAgent.resultView) is read by the Open offer only (tasks/offers.ts openingOf)', () => {
      assert.deepStrictEqual(where(/settings\??\.resultView\b|resultView\s*===?\s*'(rendered|markdown)'|\{[^}]*\bresultView\b[^}]*\}\s*=\s*[\w.?]*settings\b/, ['config.ts', 'tasks/offers.ts']), []);
    });

    it('one input box asks for the API key; one map says what an error button runs', () => {
      assert.deepStrictEqual(where(/tfai_/, ['auth/keyInput.ts']), []);
      assert.deepStrictEqual(where(/workbench\.action\.openSettings/, ['errors.ts']), []);
    });
  });
});

/**
 * Where fences may be found: the reader's fence scanner, and the prompt builder (it looks for the longest
 * backtick run in the code it sends, to pick a longer fence: building, not reading).
 */
  const FENCE_READERS = ['review/fences.ts', 'tasks/sending/prompt.ts'];

/** A line of code that scans for fences (see the architecture test that uses it). */
function fenceScannerPattern(): RegExp {
  return new RegExp(
    [
      /[`~]\\?\{3/.source, // `{3,} ~{3,}
      /\[\\?[`~]\\?[`~]\]/.source, // [`~]
      /\\?`\|~|~\|\\?`/.source, // `|~
      /(?:===?|!==?)\s*(?:96|126)\b|\b(?:96|126)\s*(?:===?|!==?)/.source, // charCode === 96
      /(?:startsWith|endsWith|indexOf|includes|split|match|test)\(\s*['"`/]\^?\s*(?:\\`|`|~){3}/.source, // .startsWith('```')
      /(?:===?|!==?)\s*['"](?:`{3,}|~{3,})['"]|['"](?:`{3,}|~{3,})['"]\s*(?:===?|!==?)/.source, // === '~~~'
    ].join('|'),
  );
}
