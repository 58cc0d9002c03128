export const placeholder = 'emulator';
