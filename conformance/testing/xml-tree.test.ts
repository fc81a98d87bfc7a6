import { describe, expect, it } from 'vitest';
import { parseXml } from './xml-tree.js';

// The JUnit test is only as strong as this parser's refusals.
describe('parseXml', () => {
  it('reads elements, attributes, entities and text', () => {
    const root = parseXml('<?xml version="1.0"?>\n<a x="1 &amp; 2"><b/><c y=\'&#60;\'>t&lt;&#x3e;</c></a>\n');
    expect(root).toEqual({
      name: 'a',
      attributes: { x: '1 & 2' },
      text: '',
      children: [
        { name: 'b', attributes: {}, children: [], text: '' },
        { name: 'c', attributes: { y: '<' }, children: [], text: 't<>' },
      ],
    });
  });

  it.each([
    ['<a><b></a></b>', /closes/],
    ['<a>', /unclosed/],
    ['<a x=1/>', /not quoted/],
    ['<a x="1" x="2"/>', /twice/],
    ['<a>1 & 2</a>', /entity/],
    ['<a x="<"/>', /raw "<"/],
    ['<a/><b/>', /second root/],
    ['text<a/>', /outside/],
    ['<a>&nbsp;</a>', /unknown entity/],
    ['', /no root/],
  ])('refuses %s', (source, message) => {
    expect(() => parseXml(source)).toThrow(message);
  });
});
