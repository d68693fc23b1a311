import type { ValueKind } from "./tool-shape.js";

/**
 * The computations the recogniser knows, by the words that name them and the parameters
 * they need. General knowledge only (arithmetic, geometry, statistics, finance, physics
 * formulas as textbooks state them), never one catalog's tools: an operation is recognised
 * when a tool's words name it and every parameter of the tool finds its role.
 */

/** One way a tool parameter can fill a role: a pattern on its name words, or on its description. */
export interface Alternative {
  name?: RegExp;
  /** A parameter whose name words match this never fills the role ("periods per year" is not a number of years). */
  not?: RegExp;
  description?: RegExp;
  /** The argument is multiplied by this before use (a diameter for a radius: 0.5). */
  scale?: number;
  /** The only numeric parameter left fills the role. */
  sole?: boolean;
}

export interface Role {
  alternatives: Alternative[];
  kinds: readonly ValueKind[];
  /** A rate: a percentage (per the description, or above 1 when it does not say) is divided by 100. */
  rate?: boolean;
  /** A number of periods per year, also given as words ("monthly", "quarterly"). */
  frequency?: boolean;
  /** A length or a mass: centimetres, inches, pounds… in the description are converted to metres or kilograms. */
  si?: "length" | "mass";
}

export interface Operation {
  /** The allowlisted math function it calls. */
  fn: string;
  /** Any one of these sets of patterns, all found in the tool's name and description, names it. */
  identity: RegExp[][];
  /** Words that mean the tool does something else (a weighted mean is not a mean). */
  exclude?: RegExp;
  /** Roles by the math function's parameter names; `values` of a list function takes a list or several operands. */
  roles: Record<string, Role>;
  /** The result does not depend on the unit the arguments are in, so a unit label may be ignored. */
  unitFree: boolean;
  /** An exact answer: a "method" or "algorithm" parameter cannot change it, so it may be ignored. */
  methodFree?: boolean;
}

const NUM: readonly ValueKind[] = ["number", "integer"];
const INT: readonly ValueKind[] = ["integer", "number"];
const LIST: readonly ValueKind[] = ["numbers", "record"];

const named = (name: RegExp, scale?: number): Alternative =>
  scale === undefined ? { name } : { name, scale };
const described = (description: RegExp): Alternative => ({ description });
const SOLE: Alternative = { sole: true };

const role = (kinds: readonly ValueKind[], ...alternatives: Alternative[]): Role => ({ kinds, alternatives });
const num = (...alternatives: Alternative[]) => role(NUM, ...alternatives);

/** Several numbers: one list parameter, or two or more operand parameters. */
const VALUES: Role = role(LIST, SOLE);

/** Names of plain operands: a, b, x, y, num1, number2, first number, value 1… */
export const OPERAND =
  /^(a|b|x|y|z|(num|number|int|integer|value|operand|term|arg|n|x|val)\s?\d|(first|second|third)( (number|value|operand|integer|num|term|input))?|(number|value|operand|input) (one|two|three|a|b))$/;

const X = num(named(/^(x|n|num|number|value|val|input|operand|angle|a)$/), SOLE);
const RADIUS = num(
  named(/^(radius|r|circle radius|radius of (the )?(circle|sphere))$/),
  named(/^(diameter|d)$/, 0.5),
);
const HEIGHT = num(named(/^(height|h|altitude|perpendicular height)$/));
const RATE: Role = {
  ...num(named(/\b(rate|interest|yield|return|growth)\b/), named(/^r$/)),
  rate: true,
};
const YEARS = num({
  name: /\b(years?|time|period|duration|term|horizon|t)\b/,
  not: /\b(per|compound\w*|frequency|times)\b/,
});
const PERIODS: Role = {
  ...role(
    ["integer", "number", "string"],
    named(/\b(compound\w*|frequency|periods? per year|times per year|per year|^n$)\b/),
  ),
  frequency: true,
};
const PRINCIPAL = num(
  named(/\b(principal|principle|initial|deposit|present value|investment|amount|invested|p)\b/),
);

/** Motion under constant acceleration for a time. */
const UNIFORM_ACCELERATION: Record<string, Role> = {
  initial: num(named(/\b(initial (velocity|speed)|u|v0|vi|start(ing)? (velocity|speed))\b/)),
  acceleration: num(named(/^(acceleration|a|gravity|g)$/)),
  time: num(named(/^(time|t|duration|seconds)$/)),
};

/** A function written as text: the parameter a calculus tool works on. */
const FUNCTION_TEXT =
  /^(function|func|f|fx|f x|expression|equation|polynomial|formula|function string|math function)$/;

/** A tool that also answers a perimeter answers more than an area: a single value would be wrong. */
const PERIMETER = /\b(perimeter|circumference)\b/;

const op = (
  fn: string,
  identity: RegExp[][],
  roles: Record<string, Role>,
  options: { exclude?: RegExp; unitFree?: boolean; methodFree?: boolean } = {},
): Operation => ({ fn, identity, roles, unitFree: options.unitFree ?? true, ...options });

export const OPERATIONS: readonly Operation[] = [
  // arithmetic
  op("add", [[/\b(sum|add|adds|addition|plus)\b/]], { values: VALUES }, { exclude: /\b(summar|squares?)\b/ }),
  op("subtract", [[/\b(subtract\w*|minus|difference between)\b/]], {
    a: num(named(/^(minuend|from)$/), named(OPERAND)),
    b: num(named(/^(subtrahend)$/), named(OPERAND)),
  }),
  op("multiply", [[/\b(multiply|multiplies|multiplication|product of|times)\b/], [/^(calc )?product\b/]], {
    values: VALUES,
  }),
  op("divide", [[/\b(divide|divides|division|quotient)\b/]], {
    a: num(named(/^(dividend|numerator)$/), named(OPERAND)),
    b: num(named(/^(divisor|denominator)$/), named(OPERAND)),
  }),
  op("modulo", [[/\b(modulo|remainder)\b/]], {
    a: num(named(/^(dividend|numerator)$/), named(OPERAND)),
    b: num(named(/^(divisor|denominator|modulus|mod)$/), named(OPERAND)),
  }),
  op(
    "power",
    [[/\b(power|exponent\w*|raised|pow)\b/]],
    {
      base: num(named(/^(base|base number|x|a|number|num)$/)),
      exponent: num(named(/^(exponent|power|exp|n|y|b)$/)),
      modulus: num(named(/^(mod|modulus|modulo|m)$/)),
    },
    { exclude: /\b(power (level|plant|consumption|supply|output)|horsepower|watts?)\b/ },
  ),
  op("sqrt", [[/\b(square root|sqrt)\b/]], { x: X }),
  op("cbrt", [[/\b(cube root|cbrt)\b/]], { x: X }),
  op(
    "log",
    [[/\blog(arithm)?s?\b/]],
    {
      x: num(named(/^(x|n|number|num|value|val|input|argument)$/)),
      base: num(named(/^(base|b)$/)),
    },
    { exclude: /\b(log (file|entr|message|event)|logs|logging|login|catalog)\b/ },
  ),
  op("ln", [[/\bnatural log(arithm)?\b/], [/\bln\b/]], { x: X }),
  op("abs", [[/\babsolute value\b/]], { x: X }),
  op(
    "factorial",
    [[/\bfactorial\b/]],
    { n: role(INT, named(/^(n|number|num|value|x|integer|input)$/), SOLE) },
    { methodFree: true },
  ),
  op(
    "gcd",
    [[/\b(gcd|hcf|gcf|greatest common (divisor|factor)|highest common (factor|divisor))\b/]],
    {
      values: VALUES,
    },
    { methodFree: true },
  ),
  op(
    "lcm",
    [[/\b(lcm|least common multiple|lowest common multiple)\b/]],
    { values: VALUES },
    { methodFree: true },
  ),
  op("combinations", [[/\b(combinations|choose|ncr|binomial coefficient)\b/]], {
    n: role(INT, named(/^(n|total|total items|items|set size|pool|number of items|total number)$/)),
    k: role(INT, named(/^(k|r|choose|select|selected|sample|group size|subset size|items to choose)$/)),
  }),
  op("permutations", [[/\b(permutations|npr|arrangements)\b/]], {
    n: role(INT, named(/^(n|total|total items|items|set size|pool|number of items|total number)$/)),
    k: role(INT, named(/^(k|r|select|selected|sample|group size|items to arrange)$/)),
  }),
  op("is_prime", [[/\b(is prime|check prime|prime check|primality|whether .* prime)\b/]], {
    n: role(INT, named(/^(n|number|num|value|x|integer|input)$/), SOLE),
  }),
  op(
    "prime_factors",
    [[/\bprime (factor|factorization|factorisation|decomposition)/], [/\bfactori[sz]e\b/]],
    {
      n: role(INT, named(/^(n|number|num|value|x|integer|input)$/), SOLE),
    },
  ),
  op(
    "fibonacci",
    [[/\bfibonacci\b/]],
    { n: role(INT, named(/^(n|number|num|position|index|term|nth)$/), SOLE) },
    {
      exclude: /\b(sequence|series|list|first \w+ (numbers|terms)|up to)\b/,
    },
  ),
  op("fibonacci_sequence", [[/\bfibonacci\b/, /\b(sequence|series|list|first \w+ (numbers|terms))\b/]], {
    count: role(
      INT,
      named(/^(n|count|number|num|length|terms|num terms|number of terms|items|position|limit)$/),
      SOLE,
    ),
  }),
  op(
    "primes",
    [[/\b(prime numbers|primes)\b/, /\b(range|up to|below|under|between|less than|within|from)\b/]],
    {
      limit: role(INT, named(/^(end|upper|upper limit|upper bound|limit|max|maximum|to|n|end number|stop)$/)),
      start: role(INT, named(/^(start|lower|lower limit|lower bound|from|min|minimum|begin|start number)$/)),
    },
    { exclude: /\bfactor/ },
  ),
  // statistics
  op(
    "mean",
    [[/\b(mean|average|avg)\b/]],
    { values: VALUES },
    {
      exclude:
        /\b(weighted|moving|rolling|geometric|harmonic|exponential|mean time|average (speed|velocity))\b/,
    },
  ),
  op("median", [[/\bmedian\b/]], { values: VALUES }),
  op(
    "mode",
    [[/\bmost (frequent|common)\b/], [/^(\w+ )*mode\b/, /\b(statistic|list|numbers|data|values)\b/]],
    {
      values: VALUES,
    },
  ),
  op(
    "std",
    [[/\b(standard deviation|std ?dev|stdev|std)\b/]],
    { values: VALUES },
    { exclude: /\bpopulation\b/ },
  ),
  op("std_population", [[/\bpopulation standard deviation\b/]], { values: VALUES }),
  op("variance", [[/\bvariance\b/]], { values: VALUES }, { exclude: /\bpopulation\b/ }),
  op("variance_population", [[/\bpopulation variance\b/]], { values: VALUES }),
  op("max", [[/\b(maximum|largest|biggest|highest|max)\b/, /\b(numbers?|values|list|array)\b/]], {
    values: VALUES,
  }),
  op("min", [[/\b(minimum|smallest|lowest|min)\b/, /\b(numbers?|values|list|array)\b/]], { values: VALUES }),
  op("percentile", [[/\bpercentile\b/]], {
    values: role(LIST, SOLE),
    percent: num(named(/\b(percentile|percent|p|q)\b/)),
  }),
  op("cosine_similarity", [[/\bcosine similarity\b/]], {
    a: role(["numbers"], named(/^(vector ?a|vector ?1|a|v1|first vector|x)$/)),
    b: role(["numbers"], named(/^(vector ?b|vector ?2|b|v2|second vector|y)$/)),
  }),
  // geometry
  op("hypot", [[/\b(hypot|hypotenuse|euclidean norm)\b/]], { values: VALUES }),
  op(
    "distance",
    [[/\beuclidean distance\b/], [/\bdistance between (two )?points\b/]],
    {
      a: role(["numbers"], named(/^(point ?a|point ?1|p1|a|first point|start|from|coord1|coordinates1)$/)),
      b: role(["numbers"], named(/^(point ?b|point ?2|p2|b|second point|end|to|coord2|coordinates2)$/)),
    },
    { exclude: /\b(gps|latitude|longitude|geographic|geo|earth|miles|km|map|locations?|cities)\b/ },
  ),
  op(
    "circle_area",
    [[/\barea\b/, /\bcirc(le|ular)\b/]],
    { radius: RADIUS },
    { exclude: /\b(circumference|perimeter)\b/ },
  ),
  op(
    "circle_circumference",
    [[/\bcircumference\b/], [/\bperimeter\b/, /\bcircle\b/]],
    { radius: RADIUS },
    {
      exclude: /\barea\b/,
    },
  ),
  op(
    "triangle_area",
    [[/\barea\b/, /\btriangle\b/]],
    {
      base: num(named(/^(base|b|base length|length of base)$/)),
      height: HEIGHT,
    },
    { exclude: PERIMETER },
  ),
  op(
    "triangle_area_sides",
    [[/\barea\b/, /\btriangle\b/], [/\bheron/]],
    {
      a: num(named(/^(a|side ?1|side ?a|first side|side one)$/)),
      b: num(named(/^(b|side ?2|side ?b|second side|side two)$/)),
      c: num(named(/^(c|side ?3|side ?c|third side|side three)$/)),
    },
    { exclude: PERIMETER },
  ),
  op(
    "rectangle_area",
    [[/\barea\b/, /\brectang(le|ular)\b/]],
    {
      length: num(named(/^(length|l|long side)$/)),
      width: num(named(/^(width|w|breadth)$/)),
    },
    { exclude: PERIMETER },
  ),
  op(
    "rectangle_perimeter",
    [[/\bperimeter\b/, /\brectang(le|ular)\b/]],
    {
      length: num(named(/^(length|l)$/)),
      width: num(named(/^(width|w|breadth)$/)),
    },
    { exclude: /\barea\b/ },
  ),
  op(
    "square_area",
    [
      [
        /\barea\b/,
        /\bsquare\b(?! (feet|foot|meters?|metres?|miles?|kilomet\w+|units?|inch\w*|yards?|cm|km|m|ft)\b)/,
      ],
    ],
    { side: num(named(/^(side|side length|length|size|s|a)$/)) },
    { exclude: PERIMETER },
  ),
  op("cube_volume", [[/\bvolume\b/, /\bcube\b/]], {
    side: num(named(/^(side|side length|length|edge|s|a)$/)),
  }),
  op("cuboid_volume", [[/\bvolume\b/, /\b(cuboid|rectangular (prism|box)|box)\b/]], {
    length: num(named(/^(length|l|depth|d)$/)),
    width: num(named(/^(width|w|breadth|b)$/)),
    height: num(named(/^(height|h|depth|d)$/)),
  }),
  op("sphere_volume", [[/\bvolume\b/, /\bsphere\b/]], { radius: RADIUS }),
  op("sphere_area", [[/\bsurface area\b/, /\bsphere\b/]], { radius: RADIUS }),
  op("cylinder_volume", [[/\bvolume\b/, /\bcylind/]], { radius: RADIUS, height: HEIGHT }),
  op("cone_volume", [[/\bvolume\b/, /\bcone\b/]], { radius: RADIUS, height: HEIGHT }),
  // algebra
  op("quadratic_roots", [[/\bquadratic\b/]], {
    a: num(named(/^a$/), described(/\b(x\^2|x²|x squared|squared term|second[- ]degree|quadratic term)\b/)),
    b: num(named(/^b$/), described(/\b(coefficient of x|linear term|first[- ]degree)\b/)),
    c: num(named(/^c$/), described(/\b(constant)\b/)),
  }),
  op("cubic_roots", [[/\bcubic\b/]], {
    a: num(named(/^a$/), described(/\b(x\^3|x³|x cubed|cubic term|third[- ]degree)\b/)),
    b: num(named(/^b$/), described(/\b(x\^2|x²|x squared|second[- ]degree)\b/)),
    c: num(named(/^c$/), described(/\b(coefficient of x|linear term|first[- ]degree)\b/)),
    d: num(named(/^d$/), described(/\b(constant)\b/)),
  }),
  // calculus
  op(
    "derivative",
    [[/\b(derivative|differentiat\w*)\b/]],
    {
      function: role(["string"], named(FUNCTION_TEXT)),
      at: num(named(/^(x|x value|value|point|at|x0|at point|point value|evaluation point|at x)$/)),
      variable: role(["string"], named(/^(variable|var|function variable|with respect to|wrt)$/)),
      order: role(INT, named(/^(order|n|nth|degree)$/)),
    },
    { exclude: /\b(partial|numerical approximation|estimate)\b/ },
  ),
  op(
    "integral",
    [[/\bintegra(l|te|tion)\b/], [/\barea under (the |a )?curve\b/]],
    {
      function: role(["string"], named(FUNCTION_TEXT)),
      from: num(named(/^(a|lower|lower limit|lower bound|start|start x|from|x start|min|x min|begin|x0)$/)),
      to: num(named(/^(b|upper|upper limit|upper bound|end|end x|to|x end|max|x max|stop|x1)$/)),
      variable: role(["string"], named(/^(variable|var|function variable|with respect to|wrt)$/)),
    },
    { exclude: /\b(indefinite|antiderivative|symbolic)\b/ },
  ),
  // finance
  op("simple_interest", [[/\bsimple interest\b/]], { principal: PRINCIPAL, rate: RATE, years: YEARS }),
  op(
    "compound_interest",
    [[/\bcompound(ed)? interest\b/]],
    { principal: PRINCIPAL, rate: RATE, years: YEARS, periods: PERIODS },
    { exclude: /\b(future value|final (amount|balance|value)|total amount)\b/ },
  ),
  op(
    "future_value",
    [[/\bfuture value\b/], [/\bfinal (amount|balance|value)\b/, /\b(interest|investment|deposit)\b/]],
    { principal: PRINCIPAL, rate: RATE, years: YEARS, periods: PERIODS },
  ),
  op(
    "present_value",
    [[/\bpresent value\b/]],
    {
      future: num(named(/\b(future|fv|final|target)\b/)),
      rate: RATE,
      years: YEARS,
      periods: PERIODS,
    },
    { exclude: /\bnet present value\b/ },
  ),
  op("loan_payment", [[/\b(loan|mortgage)\b/, /\b(payment|repayment|installment|instalment)\b/]], {
    principal: num(named(/\b(loan|principal|amount|borrowed|balance)\b/)),
    rate: RATE,
    years: { ...num(named(/\b(years?|term|duration|period)\b/)) },
    periods: PERIODS,
  }),
  op("npv", [[/\b(npv|net present value)\b/]], {
    rate: { ...num(named(/\b(rate|discount)\b/)), rate: true },
    cash_flows: role(["numbers"], named(/\b(cash ?flows?|flows|payments)\b/)),
    initial: num(named(/\b(initial|investment|outlay)\b/)),
  }),
  op("cagr", [[/\b(cagr|compound annual growth)\b/]], {
    initial: num(named(/\b(initial|start|beginning|begin)\b/)),
    final: num(named(/\b(final|end|ending)\b/)),
    years: YEARS,
  }),
  // physics (SI units: the result is in the unit the arguments imply)
  op("final_velocity", [[/\bfinal velocity\b/]], UNIFORM_ACCELERATION, {
    unitFree: false,
    exclude: /\bfinal speed\b/,
  }),
  // a speed is the size of a velocity: never negative, whichever way gravity's sign points
  op("final_speed", [[/\bfinal speed\b/]], UNIFORM_ACCELERATION, { unitFree: false }),
  op(
    "final_velocity_distance",
    [[/\bfinal (velocity|speed)\b/], [/\b(velocity|speed)\b/, /\b(dropped|falling|free fall|fall)\b/]],
    {
      initial: num(named(/\b(initial (velocity|speed)|u|v0|vi|start(ing)? (velocity|speed))\b/)),
      acceleration: num(named(/^(acceleration|a|gravity|g)$/)),
      distance: num(named(/^(distance|d|height|h|displacement|s)$/)),
    },
    { unitFree: false },
  ),
  op(
    "displacement",
    [[/\bdisplacement\b/], [/\b(distance (traveled|travelled|covered))\b/, /\baccelerat\w*\b/]],
    {
      initial: num(named(/\b(initial (velocity|speed)|u|v0|vi)\b/)),
      acceleration: num(named(/^(acceleration|a)$/)),
      time: num(named(/^(time|t|duration)$/)),
    },
    { unitFree: false },
  ),
  op(
    "speed",
    [[/\b(speed|velocity)\b/]],
    { distance: num(named(/^(distance|d|displacement)$/)), time: num(named(/^(time|t|duration)$/)) },
    { unitFree: false, exclude: /\b(final|initial|angular|terminal|escape|wind)\b/ },
  ),
  op(
    "density",
    [[/\bdensity\b/]],
    { mass: num(named(/^(mass|m|weight)$/)), volume: num(named(/^(volume|v)$/)) },
    {
      unitFree: false,
    },
  ),
  op(
    "force",
    [[/\bforce\b/]],
    { mass: num(named(/^(mass|m)$/)), acceleration: num(named(/^(acceleration|a)$/)) },
    {
      unitFree: false,
    },
  ),
  op(
    "kinetic_energy",
    [[/\bkinetic energy\b/]],
    { mass: num(named(/^(mass|m)$/)), velocity: num(named(/^(velocity|speed|v)$/)) },
    { unitFree: false },
  ),
  op(
    "potential_energy",
    [[/\bpotential energy\b/]],
    {
      mass: num(named(/^(mass|m)$/)),
      height: num(named(/^(height|h)$/)),
      gravity: num(named(/^(gravity|g|gravitational acceleration)$/)),
    },
    { unitFree: false },
  ),
  op(
    "momentum",
    [[/\bmomentum\b/]],
    { mass: num(named(/^(mass|m)$/)), velocity: num(named(/^(velocity|speed|v)$/)) },
    {
      unitFree: false,
    },
  ),
  op(
    "pressure",
    [[/\bpressure\b/]],
    { force: num(named(/^(force|f)$/)), area: num(named(/^(area|a)$/)) },
    { unitFree: false },
  ),
  op(
    "resistance",
    [[/\bresistance\b/]],
    { voltage: num(named(/^(voltage|v|potential difference)$/)), current: num(named(/^(current|i)$/)) },
    { unitFree: false },
  ),
  op(
    "voltage",
    [[/\bvoltage\b/]],
    { current: num(named(/^(current|i)$/)), resistance: num(named(/^(resistance|r)$/)) },
    { unitFree: false },
  ),
  op(
    "current",
    [[/\bcurrent\b/, /\b(ohm|voltage)\b/]],
    { voltage: num(named(/^(voltage|v)$/)), resistance: num(named(/^(resistance|r)$/)) },
    { unitFree: false },
  ),
  op(
    "bmi",
    [[/\b(bmi|body mass index)\b/]],
    {
      weight: { ...num(named(/\b(weight|mass)\b/)), si: "mass" },
      height: { ...num(named(/\bheight\b/)), si: "length" },
    },
    { unitFree: false },
  ),
  // probability
  op(
    "probability",
    [[/\b(probability|chance|likelihood)\b/]],
    {
      favorable: role(
        INT,
        named(/\b(favou?rable|success\w*|event|desired|target|winning)( outcomes?| cases?| events?)?\b/),
      ),
      total: role(INT, named(/\b(total|possible|all)( outcomes?| cases?| events?)?\b/)),
    },
    { exclude: /\b(binomial|distribution|dice|die|cards?|deck|poker|roll\w*|draw\w*)\b/ },
  ),
  op("binomial_probability", [[/\bbinomial\b/, /\bprobabilit/]], {
    n: role(INT, named(/^(n|trials|num trials|number of trials|experiments|number of experiments)$/)),
    k: role(
      INT,
      named(/^(k|x|successes|num success(es)?|number of successes|success count|successful outcomes)$/),
    ),
    p: num(named(/\b(probability|prob|p|chance|success rate)\b/)),
  }),
];
