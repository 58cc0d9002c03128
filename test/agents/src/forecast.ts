// What the agents' tools return: plain functions each framework wraps in its own tool type, so
// every framework's test sees the same facts. The scripted model copies fields of a JSON tool
// result into a structured answer with the same field names.

export interface Weather {
  city: string;
  temperatureC: number;
  sky: string;
}

export function weatherIn(city: string): Weather {
  return { city, temperatureC: 21, sky: 'clear' };
}

export interface LocalTime {
  city: string;
  time: string;
}

export function timeIn(city: string): LocalTime {
  return { city, time: '14:05' };
}

/** Asks the scripted model for both tools in one turn: it calls the tools its user text names. */
export const BOTH_TOOLS_PROMPT = 'Use get_weather and get_time for "Rome".';
