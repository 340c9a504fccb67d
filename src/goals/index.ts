// The weekly goals (`ayah-coach/goals`): the adapter it talks to.
export type * from './goals.adapter';
