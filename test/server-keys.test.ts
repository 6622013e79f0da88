/** The keys formats of `arcbench serve --keys` and ARCBENCH_KEYS, and their error messages. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeysError, loadKeysFile, parseKeys } from '../src/reference/server/index.ts';
import { tempDir } from './support/tempDir.ts';

describe('keys for arcbench serve', () => {
  it('reads lines `KEY user_name [user_id]`, skipping blanks and comments; derives a stable user_id', () => {
    const keys = parseKeys('# team\nkey-a alice u-1\n\nkey-b bob   # the other one\n', 'keys.txt');
    expect(keys.get('key-a')).toEqual({ user_name: 'alice', user_id: 'u-1' });
    expect(keys.get('key-b')?.user_name).toBe('bob');
    expect(keys.get('key-b')?.user_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(parseKeys('k bob', 'x').get('k')?.user_id).toBe(keys.get('key-b')?.user_id);
  });

  it('reads a JSON object, a string value being the user name', () => {
    const keys = parseKeys('{"key-a": {"user_name": "alice", "user_id": "u-1"}, "key-b": "bob"}', 'keys.json');
    expect(keys.get('key-a')).toEqual({ user_name: 'alice', user_id: 'u-1' });
    expect(keys.get('key-b')?.user_name).toBe('bob');
  });

  it('reads inline entries separated by commas (ARCBENCH_KEYS)', () => {
    const keys = parseKeys('key-a alice, key-b bob u-2', 'ARCBENCH_KEYS', true);
    expect([...keys.keys()]).toEqual(['key-a', 'key-b']);
    expect(keys.get('key-b')?.user_id).toBe('u-2');
  });

  it('names the source and line of what is wrong', () => {
    const error = (text: string, inline = false) => {
      try {
        parseKeys(text, 'keys.txt', inline);
      } catch (caught) {
        expect(caught).toBeInstanceOf(KeysError);
        return (caught as Error).message;
      }
      throw new Error('expected a KeysError');
    };
    expect(error('key-a alice\nkey-b\n')).toMatch(/^keys\.txt:2: .*expected `KEY user_name \[user_id\]`/);
    expect(error('key-a alice\nkey-a bob\n')).toMatch(/^keys\.txt:2: this key is listed twice \(first at keys\.txt:1\)/);
    expect(error('a b c d')).toMatch(/^keys\.txt:1: .*4 field/);
    expect(error('{\n"key-a": {"user_name": "alice"},\n"key-b": {"user_id": "x"}\n}')).toMatch(/^keys\.txt:3: the key's user_name/);
    expect(error('{\n"key-a": 5\n}')).toMatch(/^keys\.txt:2: /);
    expect(error('{"key-a": }')).toMatch(/^keys\.txt(:1)?: not valid JSON/);
    expect(error('# nothing\n')).toMatch(/no keys found/);
    expect(error('a b, c', true)).toMatch(/^keys\.txt:1 \(entry 2\): the entry has 1 field/);
  });

  it('never prints a key: wrong field counts, duplicates, non-ASCII keys, bad JSON, bad JSON values', () => {
    const secret = 'sk-secret-0123456789';
    const cases: Array<[string, boolean]> = [
      [`${secret}\n`, false],
      [`${secret} alice bob extra`, false],
      [`${secret} alice\n${secret} bob`, false],
      [`sk-sécret-0123456789 alice`, false],
      [`a b, ${secret}`, true],
      [`{"${secret}": }`, false],
      [`{"${secret}": 1,\n "b": x}`, false],
      [`{${secret}: "alice"}`, false],
      [`{"${secret}": 5}`, false],
      [`{"${secret}": {"user_id": "x"}}`, false],
      [`{"${secret}": "alice", "${secret}x": {"user_name": "bob", "user_id": 3}}`, false],
      [`{"sk-sécret-0123456789": "alice"}`, false],
    ];
    for (const [text, inline] of cases) {
      let message = '';
      try {
        parseKeys(text, 'ARCBENCH_KEYS', inline);
      } catch (caught) {
        message = (caught as Error).message;
      }
      expect(message, text).toMatch(/^ARCBENCH_KEYS/);
      expect(message, text).not.toMatch(/secret|sécret|0123/);
    }
  });

  it('names a keys file that cannot be read', () => {
    const dir = tempDir('keys');
    expect(() => loadKeysFile(join(dir, 'missing.txt'))).toThrow(/missing\.txt: cannot read the keys file \(ENOENT\)/);
    writeFileSync(join(dir, 'ok.txt'), 'key-a alice\n');
    expect(loadKeysFile(join(dir, 'ok.txt')).size).toBe(1);
  });
});
