// The points wallet (`ayah-coach/wallet`): the adapter it talks to.
export type * from './wallet.adapter';
