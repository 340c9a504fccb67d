// The account settings (`ayah-coach/settings`): the adapter it talks to.
export type * from './settings.adapter';
