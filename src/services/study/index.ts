export * from './study.js';
