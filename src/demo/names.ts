import type { Rng } from './rng.js';

const HANDLE_A = ['knight', 'rook', 'pawn', 'bishop', 'gambit', 'fianchetto', 'zugzwang', 'tempo', 'outpost', 'castle', 'endgame', 'blitz'];
const HANDLE_B = ['master', 'storm', 'wizard', 'hunter', 'fox', 'crusher', 'lover', 'runner', 'sage', 'rider', 'smith', 'owl'];
const FIRST = ['Alice', 'Ben', 'Chloe', 'David', 'Emma', 'Farid', 'Grace', 'Hugo', 'Isla', 'Jack', 'Kiran', 'Lucy', 'Mohammed', 'Nina', 'Oliver', 'Priya', 'Rhys', 'Sophie', 'Tom', 'Uma', 'Victor', 'Wendy', 'Yusuf', 'Zoe'];
const LAST = ['Adams', 'Bennett', 'Clarke', 'Davies', 'Evans', 'Foster', 'Green', 'Hughes', 'Iqbal', 'Jones', 'Khan', 'Lewis', 'Morris', 'Novak', 'Owen', 'Patel', 'Roberts', 'Shaw', 'Taylor', 'Walsh', 'Wright', 'Young'];

export const OTB_EVENTS = [
  'Hastings Congress',
  'Kent County League',
  'London Chess League',
  '4NCL Division 3',
  'Surrey Rapidplay',
  'Northumberland Congress',
  'Bristol League',
  'Cambridge Rapidplay',
];

export function onlineHandle(rng: Rng): string {
  return `${rng.pick(HANDLE_A)}_${rng.pick(HANDLE_B)}${rng.int(1, 999)}`;
}

export function personName(rng: Rng): string {
  return `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
}
