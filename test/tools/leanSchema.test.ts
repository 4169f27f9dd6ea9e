import { describe, expect, test } from 'vitest';
import { oneLine, terse } from '../../tools/sentences.js';
import { leanOutputSchema, TERSE_FIELD_DESCRIPTION } from '../../tools/leanSchema.js';

describe('terse descriptions', () => {
  test('a first sentence within the budget is kept whole; later sentences go', () => {
    expect(terse('cp: a centipawn score; mate: a forced mate', 80)).toBe('cp: a centipawn score; mate: a forced mate');
    expect(terse('Where the numbers come from. The engine review of this service.', 80)).toBe('Where the numbers come from.');
    expect(terse('Opening family (e.g. Sicilian Defense). More.', 80)).toBe('Opening family (e.g. Sicilian Defense).');
    expect(oneLine('Opening family (e.g. Sicilian Defense). More.')).toBe('Opening family (e.g. Sicilian Defense).');
  });

  test('over the budget: the leading clauses up to the last top-level semicolon that fits', () => {
    // 140 characters; the first clause is the 30 before the first ";".
    const value = 'Centipawns in the stated frame; for a mate, ±(100000 − |mateIn|): a large equivalent so mates outrank every cp score and faster mates rank higher';
    expect(terse(value, 80)).toBe('Centipawns in the stated frame');
    // Two clauses fit in 60 (the second ";" is at 49): both are kept.
    expect(terse('Result of the most recent game; null without games; a much longer third clause follows here', 60)).toBe(
      'Result of the most recent game; null without games',
    );
    // A semicolon inside brackets does not end a clause.
    expect(terse('Loss (lowest; costliest) against the lowest-rated opponent of the whole window', 40)).toBe('Loss (lowest; costliest) against the…');
  });

  test('otherwise whole words and an ellipsis, never ending inside an opened bracket', () => {
    expect(terse('The owner’s email address (weekly reports go there when mail is configured)', 40)).toBe('The owner’s email address…');
    expect(terse('Games with clocks in which the owner’s clock fell below 10% of the base time', 40)).toBe('Games with clocks in which the owner’s…');
    // A clause shorter than a third of the budget is not taken: words are cut instead.
    expect(terse('Wins; the count of games the owner won in the window, by any means at all', 40)).toBe('Wins; the count of games the owner won…');
  });
});

describe('the lean output schema', () => {
  const long = 'A long sentence about the field that goes on well past the eighty-character budget of the listing text';
  const schema = {
    type: 'object',
    description: 'The answer. With a second sentence.',
    properties: {
      description: { type: 'string', description: long },
      required: { type: 'array', items: { type: 'string', enum: ['description', 'required'] }, description: 'Names' },
      point: { anyOf: [{ $ref: '#/$defs/Point' }, { type: 'null' }], description: 'A point; null when none' },
    },
    required: ['description', 'required', 'point'],
    $defs: { Point: { type: 'object', properties: { x: { type: 'number', description: 'X' } }, required: ['x'], description: 'A point. Two numbers.' } },
  };

  test('every description is terse, every `required` keyword goes, fields named description/required and enum values stay', () => {
    const lean = leanOutputSchema(schema);
    expect(lean).toEqual({
      type: 'object',
      description: 'The answer.',
      properties: {
        description: { type: 'string', description: 'A long sentence about the field that goes on well past the eighty-character…' },
        required: { type: 'array', items: { type: 'string', enum: ['description', 'required'] }, description: 'Names' },
        point: { anyOf: [{ $ref: '#/$defs/Point' }, { type: 'null' }], description: 'A point; null when none' },
      },
      $defs: { Point: { type: 'object', properties: { x: { type: 'number', description: 'X' } }, description: 'A point.' } },
    });
    expect(TERSE_FIELD_DESCRIPTION).toBe(80);
    expect(lean.properties!.description.description!.toString().length).toBeLessThanOrEqual(TERSE_FIELD_DESCRIPTION);
  });

  test('the full schema is not touched (OpenAPI and the schema resource use it)', () => {
    const before = JSON.stringify(schema);
    leanOutputSchema(schema);
    expect(JSON.stringify(schema)).toBe(before);
  });
});
