// One turn of a conversation, as the model and the offline coach read it: a leaf, so that the maths
// worker (which runs the coach) needs nothing of the model's client.
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}
