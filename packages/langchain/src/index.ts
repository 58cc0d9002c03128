export const placeholder = 'langchain';
