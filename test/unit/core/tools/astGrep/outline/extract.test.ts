import assert from 'node:assert/strict';
import { parse } from '@ast-grep/napi';
import { napiLanguage, type LanguageId } from '../../../../../../src/core/tools/astGrep/languages';
import { extractOutline } from '../../../../../../src/core/tools/astGrep/outline/extract';
import type { OutlineSymbol } from '../../../../../../src/core/tools/astGrep/outline/types';

function outline(language: LanguageId, text: string): OutlineSymbol[] {
  return extractOutline(parse(napiLanguage(language), text).root(), language);
}

/** One line per symbol: `type name [+exported] [<imported] @line:col-line:col`, members indented. */
function brief(symbols: OutlineSymbol[]): string[] {
  const line = (s: OutlineSymbol): string => {
    const { start, end } = s.range;
    return `${s.type} ${s.name}${s.exported ? ' +' : ''}${s.imported ? ' <' : ''} @${start.line}:${start.column}-${end.line}:${end.column}`;
  };
  return symbols.flatMap((s) => [line(s), ...s.members.map((m) => `  ${line(m)}`)]);
}

function find(symbols: OutlineSymbol[], name: string): OutlineSymbol {
  const symbol = symbols.find((s) => s.name === name);
  assert.ok(symbol, `no symbol ${name} in ${symbols.map((s) => s.name).join(', ')}`);
  return symbol;
}

describe('ast_grep outline: extractOutline (bundled rules)', () => {
  it('Rust: use, structs, enums, traits, impl blocks, inline modules, plain pub as exported', () => {
    const text = [
      'use std::fmt;',
      'pub use crate::a::{B, C as D};',
      '/// A point.',
      '#[derive(Debug)]',
      'pub struct Point<T> {',
      '    pub x: T,',
      '    y: i32,',
      '}',
      'struct Pair(pub i32, String);',
      'pub enum Color { Red, Rgb(u8, u8, u8) }',
      'pub trait Shape { fn area(&self) -> f64; const SIDES: usize; }',
      'impl<T> Point<T> {',
      '    pub fn new(x: T) -> Self { todo!() }',
      '    fn hidden(&self) {}',
      '}',
      'impl fmt::Display for Point<i32> { fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) } }',
      'pub(crate) mod inner { pub fn f() {} }',
      'const MAX: usize = 3;',
      'pub type Alias = Vec<u8>;',
      'macro_rules! square { ($x:expr) => { $x * $x }; }',
      'pub async fn run(a: i32)',
      '    -> i32 {',
      '    a',
      '}',
    ].join('\n');
    const symbols = outline('rust', text);
    assert.deepEqual(brief(symbols), [
      'import std::fmt < @1:1-1:14',
      'import crate::a::{B, C as D} + < @2:1-2:31',
      'struct Point + @5:1-8:2',
      '  field x + @6:5-6:13',
      '  field y @7:5-7:11',
      'struct Pair @9:1-9:30',
      '  field 0 + @9:13-9:20',
      '  field 1 @9:22-9:28',
      'enum Color + @10:1-10:40',
      '  enumMember Red + @10:18-10:21',
      '  enumMember Rgb + @10:23-10:38',
      'trait Shape + @11:1-11:63',
      '  method area + @11:19-11:41',
      '  constant SIDES + @11:42-11:61',
      'impl Point<T> + @12:1-15:2',
      '  method new + @13:5-13:41',
      '  method hidden @14:5-14:24',
      'impl fmt::Display for Point<i32> + @16:1-16:101',
      '  method fmt + @16:36-16:99',
      'module inner @17:1-17:39',
      '  function f + @17:24-17:37',
      'constant MAX @18:1-18:22',
      'typeAlias Alias + @19:1-19:26',
      'macro square @20:1-20:50',
      'function run + @21:1-24:2',
    ]);
    assert.deepEqual(find(symbols, 'run'), {
      name: 'run',
      type: 'function',
      signature: 'pub async fn run(a: i32) -> i32',
      firstLine: 'pub async fn run(a: i32)',
      exported: true,
      imported: false,
      range: { start: { line: 21, column: 1 }, end: { line: 24, column: 2 } },
      members: [],
    });
    assert.equal(find(symbols, 'Point').signature, 'pub struct Point<T>');
    assert.equal(find(symbols, 'square').signature, 'macro_rules! square');
    assert.equal(find(symbols, 'MAX').signature, 'const MAX: usize = 3;');
  });

  it('TypeScript: imports, re-exports, export wrappers, later export clauses, class member visibility, parameter properties, namespaces', () => {
    const text = [
      "import { a } from './a';",
      "export * from './b';",
      'export default class Store<T> extends Base {',
      '  private cache = new Map<string, T>();',
      '  #secret = 1;',
      '  protected guarded(): void {}',
      '  constructor(readonly name: string) { super(); }',
      '  get(key: string): T | undefined { return this.cache.get(key); }',
      '}',
      'export interface Options { depth: number; walk(dir: string): void }',
      'export type Id = string;',
      'export enum Mode { Fast = 1, Slow }',
      'export const handler = async (event: Event): Promise<void> => {',
      '  await event;',
      '};',
      'const LIMIT = 10, other = 2;',
      'let counter = 0;',
      'function helper(x: number): number { return x; }',
      'namespace Tools { export function tool(): void {} }',
      'export { helper };',
    ].join('\n');
    const symbols = outline('typescript', text);
    assert.deepEqual(brief(symbols), [
      'import ./a < @1:1-1:25',
      'import ./b + < @2:1-2:21',
      'class Store + @3:1-9:2',
      '  property cache @4:3-4:39',
      '  property #secret @5:3-5:14',
      '  method guarded @6:3-6:31',
      '  constructor constructor + @7:3-7:50',
      '  property name + @7:15-7:36',
      '  method get + @8:3-8:66',
      'interface Options + @10:1-10:68',
      '  property depth + @10:28-10:41',
      '  method walk + @10:43-10:66',
      'typeAlias Id + @11:1-11:25',
      'enum Mode + @12:1-12:36',
      '  enumMember Fast + @12:20-12:28',
      '  enumMember Slow + @12:30-12:34',
      'function handler + @13:1-15:3',
      'constant LIMIT @16:7-16:17',
      'constant other @16:19-16:28',
      'variable counter @17:1-17:17',
      'function helper + @18:1-18:49',
      'module Tools @19:1-19:52',
      '  function tool + @19:19-19:50',
    ]);
    assert.equal(find(symbols, 'Store').signature, 'export default class Store<T> extends Base');
    assert.equal(find(symbols, 'handler').signature, 'export const handler = async (event: Event): Promise<void> =>');
    assert.equal(find(symbols, 'handler').firstLine, 'export const handler = async (event: Event): Promise<void> => {');
    assert.equal(find(symbols, 'other').signature, 'const other = 2');
    assert.equal(find(symbols, 'Store').members.find((m) => m.name === 'get')?.signature, 'get(key: string): T | undefined');
  });

  it('TSX and JavaScript: the same rules, anonymous default exports named default, JS class fields', () => {
    const tsx = outline('tsx', "import React from 'react';\nexport default function () { return <div />; }\nexport const App = () => <main />;\n");
    assert.deepEqual(brief(tsx), ['import react < @1:1-1:27', 'function default + @2:1-2:47', 'function App + @3:1-3:35']);
    const js = outline('javascript', 'class A { x = 1; #y = 2; m() {} }\nmodule.exports = { A };\n');
    assert.deepEqual(brief(js), ['class A @1:1-1:34', '  property x + @1:11-1:16', '  property #y @1:18-1:24', '  method m + @1:26-1:32']);
  });

  it('Python: imports, decorated definitions, class members, leading underscore as private', () => {
    const text = [
      'import os, sys as system',
      'from pkg.mod import name',
      '@dataclass',
      'class Point(Base):',
      '    x: int = 0',
      '    _cache = None',
      '    def __init__(self, x: int) -> None:',
      '        self.x = x',
      '    @property',
      '    def norm(self) -> float:',
      '        return 0.0',
      '    def _hidden(self): pass',
      'def area(p: Point,',
      '         scale: float = 1.0) -> float:',
      '    return 0.0',
      'MAX_SIZE = 3',
      '_registry: dict = {}',
    ].join('\n');
    const symbols = outline('python', text);
    assert.deepEqual(brief(symbols), [
      'import os, sys as system < @1:1-1:25',
      'import pkg.mod < @2:1-2:25',
      'class Point + @3:1-12:28',
      '  field x + @5:5-5:15',
      '  field _cache @6:5-6:18',
      '  constructor __init__ + @7:5-8:19',
      '  method norm + @9:5-11:19',
      '  method _hidden @12:5-12:28',
      'function area + @13:1-15:15',
      'constant MAX_SIZE + @16:1-16:13',
      'variable _registry @17:1-17:21',
    ]);
    assert.equal(find(symbols, 'Point').signature, '@dataclass class Point(Base):');
    assert.equal(find(symbols, 'Point').firstLine, '@dataclass');
    assert.equal(find(symbols, 'area').signature, 'def area(p: Point, scale: float = 1.0) -> float:');
  });

  it('Go: import specs, methods named by receiver, struct fields and interface methods, grouped specs, capitalised as exported', () => {
    const text = [
      'package shapes',
      'import (',
      '\tf "fmt"',
      '\t"os"',
      ')',
      'type Point struct {',
      '\tX, Y int',
      '\tlabel string',
      '\t*Base',
      '}',
      'type Shape interface {',
      '\tArea() float64',
      '}',
      'func (p *Point) Move(dx int) {}',
      'func (p Point) area() float64 { return 0 }',
      'func New() *Point { return nil }',
      'const (',
      '\tMax = 3',
      '\tmin = 1',
      ')',
      'var Default, fallback = New(), New()',
    ].join('\n');
    const symbols = outline('go', text);
    assert.deepEqual(brief(symbols), [
      'import fmt < @3:2-3:9',
      'import os < @4:2-4:6',
      'struct Point + @6:1-10:2',
      '  field X + @7:2-7:10',
      '  field Y + @7:2-7:10',
      '  field label @8:2-8:14',
      '  field Base + @9:2-9:7',
      'interface Shape + @11:1-13:2',
      '  method Area + @12:2-12:16',
      'method (*Point).Move + @14:1-14:32',
      'method Point.area @15:1-15:43',
      'function New + @16:1-16:33',
      'constant Max + @18:2-18:9',
      'constant min @19:2-19:9',
      'variable Default + @21:1-21:37',
      'variable fallback @21:1-21:37',
    ]);
    assert.equal(find(symbols, 'Point').signature, 'type Point struct');
    assert.equal(find(symbols, 'Shape').signature, 'type Shape interface');
    assert.equal(find(symbols, 'Max').signature, 'const Max = 3');
    assert.equal(find(symbols, 'fmt').signature, 'import f "fmt"');
  });

  it('Java: public or protected as exported, interface members implicitly public, enum constants and body declarations', () => {
    const text = [
      'import java.util.List;',
      'public class Store<T> extends Base {',
      '  private int size = 0, count;',
      '  protected String name;',
      '  public Store(int size) { this.size = size; }',
      '  public <U> List<U> map(U u) { return null; }',
      '  void local() {}',
      '}',
      'interface Shape { double area(); private void hidden() {} }',
      'enum Mode { FAST, SLOW; int speed() { return 1; } }',
    ].join('\n');
    const symbols = outline('java', text);
    assert.deepEqual(brief(symbols), [
      'import java.util.List < @1:1-1:23',
      'class Store + @2:1-8:2',
      '  field size @3:3-3:31',
      '  field count @3:3-3:31',
      '  field name + @4:3-4:25',
      '  constructor Store + @5:3-5:47',
      '  method map + @6:3-6:47',
      '  method local @7:3-7:18',
      'interface Shape @9:1-9:60',
      '  method area + @9:19-9:33',
      '  method hidden @9:34-9:58',
      'enum Mode @10:1-10:52',
      '  enumMember FAST + @10:13-10:17',
      '  enumMember SLOW + @10:19-10:23',
      '  method speed @10:25-10:50',
    ]);
    assert.equal(find(symbols, 'Store').signature, 'public class Store<T> extends Base');
  });

  it('Kotlin: public by default, primary-constructor properties, objects, enum entries', () => {
    const text = [
      'import a.b.C as D',
      'data class User(val id: Int, private val secret: String) {',
      '    fun greet(): String = "hi"',
      '    internal fun audit() {}',
      '}',
      'object Registry { val users = mutableListOf<User>() }',
      'enum class Level { LOW, HIGH }',
      'private fun helper() {}',
      'const val LIMIT = 3',
    ].join('\n');
    const symbols = outline('kotlin', text);
    assert.deepEqual(brief(symbols), [
      'import a.b.C as D < @1:1-1:18',
      'class User + @2:1-5:2',
      '  property id + @2:17-2:28',
      '  property secret @2:30-2:56',
      '  method greet + @3:5-3:31',
      '  method audit @4:5-4:28',
      'object Registry + @6:1-6:54',
      '  property users + @6:19-6:52',
      'enum Level + @7:1-7:31',
      '  enumMember LOW + @7:20-7:23',
      '  enumMember HIGH + @7:25-7:29',
      'function helper @8:1-8:24',
      'constant LIMIT + @9:1-9:20',
    ]);
    assert.equal(find(symbols, 'User').signature, 'data class User(val id: Int, private val secret: String)');
    assert.equal(find(symbols, 'User').members.find((m) => m.name === 'greet')?.signature, 'fun greet(): String');
  });

  it('Swift: public/open as exported, structs, enums, protocols and extensions by keyword', () => {
    const text = [
      'import Foundation',
      'public struct Point {',
      '    public var x: Double',
      '    let y: Double',
      '    public init(x: Double, y: Double) { self.x = x; self.y = y }',
      '    func norm() -> Double { 0 }',
      '}',
      'public enum Mode { case fast, slow }',
      'protocol Shape { func area() -> Double }',
      'extension Point: Shape { public func area() -> Double { 0 } }',
      'open class View {}',
      'func helper() {}',
    ].join('\n');
    const symbols = outline('swift', text);
    assert.deepEqual(brief(symbols), [
      'import Foundation < @1:1-1:18',
      'struct Point + @2:1-7:2',
      '  property x + @3:5-3:25',
      '  property y @4:5-4:18',
      '  constructor init + @5:5-5:65',
      '  method norm @6:5-6:32',
      'enum Mode + @8:1-8:37',
      '  enumMember fast + @8:20-8:35',
      '  enumMember slow + @8:20-8:35',
      'protocol Shape @9:1-9:41',
      '  method area @9:18-9:39',
      'extension Point + @10:1-10:62',
      '  method area + @10:26-10:60',
      'class View + @11:1-11:19',
      'function helper @12:1-12:17',
    ]);
    assert.equal(find(symbols, 'Point').signature, 'public struct Point');
  });

  it('counts columns in UTF-16 code units, as the editor does', () => {
    const [, symbol] = outline('typescript', "const s = '😀é'; export function f() {}\n");
    assert.ok(symbol);
    assert.deepEqual(symbol.range, { start: { line: 1, column: 18 }, end: { line: 1, column: 40 } });
  });

  it('bounds long signatures and collapses whitespace', () => {
    const params = Array.from({ length: 200 }, (_, i) => `p${i}: number`).join(',\n  ');
    const [symbol] = outline('typescript', `export function wide(\n  ${params}\n): void {}\n`);
    assert.ok(symbol);
    assert.equal(symbol.signature.length, 512);
    assert.ok(symbol.signature.startsWith('export function wide( p0: number, p1: number,'));
    assert.ok(symbol.signature.endsWith('…'));
  });
});
