"""Independent answers for BFCL's computation functions, for `npm run eval -- --bfcl DIR`.

Reads JSON lines {"key": "name(sorted,params)", "args": {...}} on stdin and prints one JSON
line per input: {"expected": value} (or {"expected": value, "alternatives": [...]} when the
function's own description allows several readings, {"unordered": true} for sets of roots),
or {"skip": reason} when the function is not a computation with one answer (it needs data
from the world, randomness, or its description leaves the formula open).

Each formula below was written by hand from the function's description and checked against
its parameters' documented units and defaults; nothing here comes from the recogniser under
test. Python's own math, fractions and (when installed) sympy compute the values.
"""

import json
import math
import sys
from itertools import product

try:
    import sympy
except ImportError:  # symbolic calculus is skipped without it
    sympy = None

E0 = 8.854187817e-12
K = 1 / (4 * math.pi * E0)
MU0 = 4e-7 * math.pi


def arg(a, name, default=None):
    value = a.get(name)
    return default if value is None or value == "" else value


def roots2(a, b, c):
    d = b * b - 4 * a * c
    if d >= 0:
        return [(-b + math.sqrt(d)) / (2 * a), (-b - math.sqrt(d)) / (2 * a)]
    re, im = -b / (2 * a), math.sqrt(-d) / (2 * a)
    return [{"re": re, "im": im}, {"re": re, "im": -im}]


def factors(n):
    out, d = [], 2
    while d * d <= n:
        while n % d == 0:
            out.append(d)
            n //= d
        d += 1
    if n > 1:
        out.append(n)
    return out


def binomial(n, k, p):
    return math.comb(n, k) * p**k * (1 - p) ** (n - k)


def dice_sum(total, dice, faces):
    hits = sum(1 for roll in product(range(1, faces + 1), repeat=dice) if sum(roll) == total)
    return hits / faces**dice


def compound(p, r, t, n=1):
    return p * (1 + r / n) ** (n * t)


FREQ = {"annually": 1, "annual": 1, "yearly": 1, "semiannually": 2, "semi-annually": 2, "quarterly": 4,
        "monthly": 12, "weekly": 52, "daily": 365}


def freq(value, default=1):
    if value is None or value == "":
        return default
    return FREQ[value.lower()] if isinstance(value, str) else value


def loan(principal, annual_rate, years):
    r, n = annual_rate / 12, years * 12
    return principal * r / (1 - (1 + r) ** -n)


def sample_std(values):
    m = sum(values) / len(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def population_std(values):
    m = sum(values) / len(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / len(values))


def median(values):
    s, n = sorted(values), len(values)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def mode(values):
    counts = {v: values.count(v) for v in values}
    top = max(counts.values())
    modes = [v for v in counts if counts[v] == top]
    return modes[0] if len(modes) == 1 else modes


def pearson(x, y):
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    return sxy / math.sqrt(sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y))


def primes_between(start, end):
    return [n for n in range(max(2, start), end + 1) if all(n % d for d in range(2, int(n**0.5) + 1))]


def fib(count):
    out = [0, 1]
    while len(out) < count:
        out.append(out[-1] + out[-2])
    return out[:count]


def sym(text, var="x"):
    """A function written as text ("3x**2 + 2x - 1", "lambda x: sin(x)") as a sympy expression."""
    if sympy is None:
        raise LookupError("sympy is not installed")
    from sympy.parsing.sympy_parser import (convert_xor, implicit_multiplication_application, parse_expr,
                                            standard_transformations)

    body = text.split(":", 1)[1] if text.strip().startswith("lambda") else text
    x = sympy.Symbol(var)
    transformations = standard_transformations + (implicit_multiplication_application, convert_xor)
    return x, parse_expr(body, local_dict={var: x}, transformations=transformations)


def derivative(text, at, var="x", order=1):
    x, expr = sym(text, var)
    return float(sympy.diff(expr, x, order).subs(x, at))


def integral(text, lo, hi):
    x, expr = sym(text)
    return float(sympy.integrate(expr, (x, lo, hi)))


def poly_roots(coefficients):
    import numpy

    roots = numpy.roots(coefficients)
    return [float(r.real) if abs(r.imag) < 1e-12 else {"re": float(r.real), "im": float(r.imag)} for r in roots]


# independent unit table (SI base per unit) for the conversion functions
LENGTH = {"m": 1, "meter": 1, "meters": 1, "km": 1000, "kilometer": 1000, "kilometers": 1000, "cm": 0.01,
          "centimeter": 0.01, "centimeters": 0.01, "mm": 0.001, "mi": 1609.344, "mile": 1609.344,
          "miles": 1609.344, "ft": 0.3048, "foot": 0.3048, "feet": 0.3048, "in": 0.0254, "inch": 0.0254,
          "inches": 0.0254, "yd": 0.9144, "yard": 0.9144, "yards": 0.9144}
MASS = {"kg": 1, "kilogram": 1, "kilograms": 1, "g": 0.001, "gram": 0.001, "grams": 0.001,
        "lb": 0.45359237, "lbs": 0.45359237, "pound": 0.45359237, "pounds": 0.45359237,
        "oz": 0.028349523125, "ounce": 0.028349523125, "ounces": 0.028349523125}
TSP = 4.92892159375e-6
VOLUME = {"l": 0.001, "liter": 0.001, "liters": 0.001, "ml": 1e-6, "milliliter": 1e-6, "milliliters": 1e-6,
          "teaspoon": TSP, "teaspoons": TSP, "tsp": TSP, "tablespoon": 3 * TSP, "tablespoons": 3 * TSP,
          "tbsp": 3 * TSP, "cup": 48 * TSP, "cups": 48 * TSP, "c": 48 * TSP, "gallon": 768 * TSP,
          "gallons": 768 * TSP, "fl oz": 6 * TSP, "fluid ounce": 6 * TSP}


def convert(value, source, target):
    s, t = source.lower(), target.lower()
    for table in (LENGTH, MASS, VOLUME):
        if s in table and t in table:
            return value * table[s] / table[t]
    temps = {"celsius": "c", "c": "c", "fahrenheit": "f", "f": "f", "kelvin": "k", "k": "k"}
    if s in temps and t in temps:
        c = {"c": value, "f": (value - 32) * 5 / 9, "k": value - 273.15}[temps[s]]
        return {"c": c, "f": c * 9 / 5 + 32, "k": c + 273.15}[temps[t]]
    raise LookupError(f"no independent factor for {source} -> {target}")


def unrounded_then(value, digits):
    return round(value, digits) if digits is not None else value


R = {}  # key -> function(args) -> expected (or a dict with alternatives)

# geometry
for key in ["calculate_triangle_area(base,height,unit)", "calculate_area(base,height,unit)",
            "calculate_triangle_area(base,height)", "calc_area_triangle(base,height)",
            "geometry.area_triangle(base,height,unit)", "math.triangle_area_base_height(base,height)",
            "triangle.area(base,height)"]:
    R[key] = lambda a: 0.5 * a["base"] * a["height"]
for key in ["geometry.area_circle(radius,units)", "geometry.calculate_area_circle(radius,unit)",
            "math.circle_area(radius)", "area_circle.calculate(radius)", "circle.calculate_area(radius)"]:
    R[key] = lambda a: math.pi * a["radius"] ** 2
for key in ["calculate_circumference(radius,unit)", "geometry.circumference(radius,units)"]:
    R[key] = lambda a: 2 * math.pi * a["radius"]
R["circle.calculate_circumference(diameter)"] = lambda a: math.pi * a["diameter"]
R["calculate_circle_dimensions(radius)"] = lambda a: {"area": math.pi * a["radius"] ** 2,
                                                      "circumference": 2 * math.pi * a["radius"]}
R["math.triangle_area_heron(side1,side2,side3)"] = lambda a: (
    lambda s: math.sqrt(s * (s - a["side1"]) * (s - a["side2"]) * (s - a["side3"])))(
    (a["side1"] + a["side2"] + a["side3"]) / 2)
R["rectangle.area(length,width)"] = lambda a: a["length"] * a["width"]
R["area_rectangle.calculate(breadth,length)"] = lambda a: a["length"] * a["breadth"]
R["rectangle.calculate_perimeter(breadth,length)"] = lambda a: 2 * (a["length"] + a["breadth"])
R["geometry_square.calculate(side)"] = lambda a: {"area": a["side"] ** 2, "perimeter": 4 * a["side"]}
R["geometry_rectangle.calculate(length,width)"] = lambda a: {"area": a["length"] * a["width"],
                                                             "perimeter": 2 * (a["length"] + a["width"])}
R["geometry_circle.calculate(radius)"] = R["calculate_circle_dimensions(radius)"]
R["geometry.calculate_cone_volume(height,radius,round_off)"] = lambda a: round(
    math.pi * a["radius"] ** 2 * a["height"] / 3, arg(a, "round_off", 0))
R["physics.calculate_cone_mass(density,height,radius)"] = lambda a: (
    math.pi * a["radius"] ** 2 * a["height"] / 3 * a["density"])
R["calcVolume.cuboid(depth,height,width)"] = lambda a: a["depth"] * a["height"] * a["width"]
R["calcVolume.sphere(radius)"] = lambda a: 4 / 3 * math.pi * a["radius"] ** 3
R["volume_cylinder.calculate(height,radius)"] = lambda a: math.pi * a["radius"] ** 2 * a["height"]
for key in ["math.hypot(x,y,z)"]:
    R[key] = lambda a: math.hypot(a["x"], a["y"], arg(a, "z", 0))
R["math.pythagoras(a,b)"] = lambda a: math.hypot(a["a"], a["b"])
R["EuclideanDistance.calculate(pointA,pointB,rounding)"] = lambda a: round(
    math.dist(a["pointA"], a["pointB"]), arg(a, "rounding", 0))
R["cosine_similarity.calculate(rounding,vector1,vector2)"] = lambda a: round(
    sum(x * y for x, y in zip(a["vector1"], a["vector2"]))
    / (math.hypot(*a["vector1"]) * math.hypot(*a["vector2"])), arg(a, "rounding", 0))
R["calculate_paint_needed(coverage_rate,height,length)"] = lambda a: a["length"] * a["height"] / a["coverage_rate"]

# algebra and number theory
for key in ["algebra.quadratic_roots(a,b,c)", "solve_quadratic_equation(a,b,c)", "solve_quadratic(a,b,c)",
            "math_roots.quadratic(a,b,c)", "solve.quadratic_equation(a,b,c)"]:
    R[key] = lambda a: {"expected": roots2(a["a"], a["b"], a["c"]), "unordered": True}
R["solve_quadratic(a,b,c,root_type)"] = lambda a: {
    "expected": [r for r in roots2(a["a"], a["b"], a["c"])
                 if arg(a, "root_type", "real") == "all" or not isinstance(r, dict)], "unordered": True}
R["math.roots.cubic(a,b,c,d)"] = lambda a: {"expected": poly_roots([a["a"], a["b"], a["c"], a["d"]]),
                                           "unordered": True}
R["math.roots.polynomial(coefficients,degree)"] = lambda a: {"expected": poly_roots(a["coefficients"]),
                                                            "unordered": True}
for key in ["math.factorial(number)", "calculate_factorial(number)"]:
    R[key] = lambda a: math.factorial(a["number"])
for key in ["math.gcd(num1,num2)", "gcd(num1,num2)", "calculate_gcd(algorithm,num1,num2)"]:
    R[key] = lambda a: math.gcd(a["num1"], a["num2"])
for key in ["math.hcf(number1,number2)", "number_theory.gcd(number1,number2)"]:
    R[key] = lambda a: math.gcd(a["number1"], a["number2"])
for key in ["math.lcm(num1,num2)", "lcm(num1,num2)", "calculate_lcm(method,num1,num2)"]:
    R[key] = lambda a: math.lcm(a["num1"], a["num2"])
R["number_analysis.prime_factors(number)"] = lambda a: {
    "expected": factors(a["number"]), "alternatives": [sorted(set(factors(a["number"])))]}
R["prime_factorize(number,return_type)"] = lambda a: (
    {str(p): factors(a["number"]).count(p) for p in sorted(set(factors(a["number"])))}
    if arg(a, "return_type", "list") == "dictionary" else factors(a["number"]))
R["math.power(base,exponent,mod)"] = lambda a: (
    pow(a["base"], a["exponent"], a["mod"]) if arg(a, "mod") is not None else a["base"] ** a["exponent"])
for key in ["find_prime_numbers(end,start)", "generate_prime(end,start)"]:
    R[key] = lambda a: primes_between(a["start"], a["end"])
R["get_fibonacci_sequence(count)"] = lambda a: {"expected": fib(a["count"]),
                                               "alternatives": [fib(a["count"] + 1)[1:]]}
R["math_toolkit.sum_of_multiples(lower_limit,multiples,upper_limit)"] = lambda a: sum(
    n for n in range(a["lower_limit"], a["upper_limit"] + 1) if any(n % m == 0 for m in a["multiples"]))
R["math_toolkit.product_of_primes(count)"] = lambda a: math.prod(primes_between(2, 1000)[: a["count"]])
R["sum_elements(elements)"] = lambda a: sum(a["elements"])

# calculus (sympy)
R["calculate_derivative(function,x_value)"] = lambda a: derivative(a["function"], arg(a, "x_value", 0))
R["calculate_derivative(func,order,x_value)"] = lambda a: derivative(a["func"], a["x_value"],
                                                                     order=arg(a, "order", 1))
R["calculus.derivative(function,function_variable,value)"] = lambda a: derivative(
    a["function"], a["value"], arg(a, "function_variable", "x"))
R["derivative(function,x)"] = lambda a: derivative(a["function"], a["x"])
R["calculate_integral(a,b,func)"] = lambda a: integral(a["func"], a["a"], a["b"])
R["integral(a,b,function)"] = lambda a: integral(a["function"], a["a"], a["b"])
for key in ["math.definite_integral(function,lower_limit,upper_limit)",
            "math.gaussian_integral(function,lower_limit,upper_limit)"]:
    R[key] = lambda a: integral(a["function"], a["lower_limit"], a["upper_limit"])
R["mathematics.calculate_area_under_curve(limits,polynomial)"] = lambda a: (
    lambda p, lo, hi: sum(c / (len(p) - i) * (hi ** (len(p) - i) - lo ** (len(p) - i)) for i, c in enumerate(p)))(
    a["polynomial"], a["limits"][0], a["limits"][1])

# statistics and probability
for key in ["calculate_average(numbers)"]:
    R[key] = lambda a: sum(a["numbers"]) / len(a["numbers"])
R["calculate_average(gradeDict)"] = lambda a: sum(a["gradeDict"].values()) / len(a["gradeDict"])
R["calculate_standard_deviation(gradeDict)"] = lambda a: {
    "expected": sample_std(list(a["gradeDict"].values())),
    "alternatives": [population_std(list(a["gradeDict"].values()))]}
R["statistics.median(data)"] = lambda a: median(a["data"])
R["statistics.mode(data)"] = lambda a: mode(a["data"])
R["statistics.variance(data,population)"] = lambda a: (
    population_std(a["data"]) ** 2 if arg(a, "population", True) else sample_std(a["data"]) ** 2)
R["correlation.calculate(array1,array2,type)"] = lambda a: (
    pearson(a["array1"], a["array2"]) if arg(a, "type", "pearson") == "pearson" else None)
R["calculate_probability(favorable_outcomes,round_to,total_outcomes)"] = lambda a: round(
    a["favorable_outcomes"] / a["total_outcomes"], arg(a, "round_to", 2))
R["probabilities.calculate_single(event_outcomes,round,total_outcomes)"] = lambda a: round(
    a["event_outcomes"] / a["total_outcomes"], arg(a, "round", 2))
R["probability_of_event(format_as_ratio,success_outcomes,total_outcomes)"] = lambda a: (
    None if arg(a, "format_as_ratio", False) else a["success_outcomes"] / a["total_outcomes"])
R["probability.dice_roll(desired_number,die_sides,number_of_rolls)"] = lambda a: (
    (1 / arg(a, "die_sides", 6)) ** a["number_of_rolls"])
for key in ["prob_dist.binomial(p,successes,trials)"]:
    R[key] = lambda a: binomial(a["trials"], a["successes"], arg(a, "p", 0.5))
R["calculate_binomial_probability(number_of_successes,number_of_trials,probability_of_success)"] = lambda a: (
    binomial(a["number_of_trials"], a["number_of_successes"], arg(a, "probability_of_success", 0.5)))
R["calc_binomial_prob(num_success,num_trials,prob_success)"] = lambda a: binomial(
    a["num_trials"], a["num_success"], a["prob_success"])
R["monopoly_odds_calculator(dice_faces,dice_number,number)"] = lambda a: dice_sum(
    a["number"], a["dice_number"], arg(a, "dice_faces", 6))
R["dice_roll_probability(desired_sum,n_rolls,sides_per_die)"] = lambda a: dice_sum(
    a["desired_sum"], arg(a, "n_rolls", 1), a["sides_per_die"])
R["card_game_probability.calculate(cards_drawn,desired_cards,total_cards)"] = lambda a: (
    a["desired_cards"] / a["total_cards"] if arg(a, "cards_drawn", 1) == 1 else None)
R["poker_probability.full_house(deck_size,hand_size)"] = lambda a: (
    13 * math.comb(4, 3) * 12 * math.comb(4, 2) / math.comb(52, 5)
    if (arg(a, "deck_size", 52), arg(a, "hand_size", 5)) == (52, 5) else None)
R["calculate_batting_average(at_bats,decimal_places,hits)"] = lambda a: round(
    a["hits"] / a["at_bats"], arg(a, "decimal_places", 3))
R["calculate_clock_angle(hours,minutes,round_to)"] = lambda a: round(
    min(abs(30 * a["hours"] - 5.5 * a["minutes"]) % 360, 360 - abs(30 * a["hours"] - 5.5 * a["minutes"]) % 360),
    arg(a, "round_to", 2))
R["calculate_genotype_frequency(allele_frequency,genotype)"] = lambda a: (
    a["allele_frequency"] ** 2 if a["genotype"] == "AA" else None)
R["calculate_fitness(trait_contributions,trait_values)"] = lambda a: sum(
    v * c for v, c in zip(a["trait_values"], a["trait_contributions"]))

# finance (rates as the description states them)
R["calculate_compound_interest(n,principal,rate,time)"] = lambda a: (
    compound(a["principal"], a["rate"], a["time"], arg(a, "n", 1)) - a["principal"])
R["financial.compound_interest(n,principle,rate,time)"] = lambda a: (
    compound(a["principle"], a["rate"], a["time"], a["n"]) - a["principle"])
R["calculate_compounded_interest(n,principal,rate,time)"] = lambda a: (
    compound(a["principal"], a["rate"], a["time"], a["n"]) - a["principal"])
R["calculate_compounded_interest(compounding_frequency,interest_rate,period,principal)"] = lambda a: (
    compound(a["principal"], a["interest_rate"], a["period"], freq(arg(a, "compounding_frequency"), 1))
    - a["principal"])
R["calculate_compound_interest(compounds_per_year,interest_rate,principle,time)"] = lambda a: (
    compound(a["principle"], a["interest_rate"], a["time"], arg(a, "compounds_per_year", 1)) - a["principle"])
R["compound_interest(annual_rate,compounding_freq,principal,time_in_years)"] = lambda a: (
    compound(a["principal"], a["annual_rate"] / 100, a["time_in_years"], freq(a["compounding_freq"]))
    - a["principal"])
R["calc_Compound_Interest(annual_rate,compound_freq,duration,principle_amount)"] = lambda a: (
    compound(a["principle_amount"], a["annual_rate"] / 100, a["duration"], arg(a, "compound_freq", 1))
    - a["principle_amount"])
R["calc_Simple_Interest(annual_rate,duration,principle_amount)"] = lambda a: (
    a["principle_amount"] * a["annual_rate"] / 100 * a["duration"])
R["financial.simple_interest(principle,rate,time)"] = lambda a: a["principle"] * a["rate"] * a["time"]
R["bank_account.calculate_interest(principal,rate,time)"] = lambda a: {
    "expected": a["principal"] * a["rate"] * a["time"],
    "alternatives": [compound(a["principal"], a["rate"], a["time"]) - a["principal"]]}
R["finance.predict_future_value(annual_interest_rate,compounding_periods_per_year,present_value,time_years)"] = (
    lambda a: compound(a["present_value"], a["annual_interest_rate"], a["time_years"],
                       arg(a, "compounding_periods_per_year", 1)))
R["calculate_future_value(annual_interest_rate,compounds_per_year,present_value,years)"] = lambda a: compound(
    a["present_value"], a["annual_interest_rate"], a["years"], arg(a, "compounds_per_year", 1))
R["calculate_future_value(compounded,duration,initial_investment,interest_rate)"] = lambda a: compound(
    a["initial_investment"], a["interest_rate"], a["duration"], arg(a, "compounded", 1))
R["future_value(initial_investment,interest_rate,num_compoundings,time)"] = lambda a: compound(
    a["initial_investment"], a["interest_rate"], a["time"], arg(a, "num_compoundings", 1))
R["financials.calculate_future_value(annual_interest_rate,number_of_years,present_value)"] = lambda a: compound(
    a["present_value"], a["annual_interest_rate"], a["number_of_years"])
R["finance.calculate_future_value(contribution,initial_investment,rate_of_return,years)"] = lambda a: (
    compound(a["initial_investment"], a["rate_of_return"], a["years"]) if not arg(a, "contribution", 0) else None)
R["portfolio_future_value(expected_annual_return,invested_amount,stock,years)"] = lambda a: compound(
    a["invested_amount"], a["expected_annual_return"], a["years"])
R["calculate_mutual_fund_balance(annual_yield,investment_amount,years)"] = lambda a: compound(
    a["investment_amount"], a["annual_yield"], a["years"])
R["calculate_cagr(final_value,initial_value,period_in_years)"] = lambda a: (
    (a["final_value"] / a["initial_value"]) ** (1 / a["period_in_years"]) - 1)
R["calculate_NPV(cash_flows,discount_rate,initial_investment)"] = lambda a: sum(
    cf / (1 + a["discount_rate"]) ** (t + 1) for t, cf in enumerate(a["cash_flows"])) - arg(a, "initial_investment", 0)
R["calculate_discounted_cash_flow(coupon_payment,discount_rate,face_value,period)"] = lambda a: sum(
    a["coupon_payment"] / (1 + a["discount_rate"]) ** t for t in range(1, a["period"] + 1)) + arg(
    a, "face_value", 1000) / (1 + a["discount_rate"]) ** a["period"]
R["calculate_present_value(interest_rate,payment_per_year,years)"] = lambda a: (
    a["payment_per_year"] * (1 - (1 + a["interest_rate"]) ** -a["years"]) / a["interest_rate"])
for key in ["finance.loan_repayment(interest_rate,loan_amount,loan_term)",
            "calculate_mortgage_payment(interest_rate,loan_amount,loan_term)"]:
    R[key] = lambda a: loan(a["loan_amount"], a["interest_rate"], a["loan_term"])
R["corporate_finance.calculate_YOY_growth_rate(company_name,year1,year1_revenue,year2,year2_revenue)"] = lambda a: {
    "expected": (a["year2_revenue"] - a["year1_revenue"]) / a["year1_revenue"] * 100,
    "alternatives": [(a["year2_revenue"] - a["year1_revenue"]) / a["year1_revenue"]]}
for key, (num, den) in {"financial_ratios.calculate_ROE(net_income,shareholder_equity)": ("net_income", "shareholder_equity"),
                        "financial_ratios.calculate_ROA(net_income,total_assets)": ("net_income", "total_assets"),
                        "financial_ratio.net_profit_margin(net_income,total_revenue)": ("net_income", "total_revenue"),
                        "financial_ratio.debt_ratio(total_assets,total_liabilities)": ("total_liabilities", "total_assets")}.items():
    R[key] = (lambda n, d: lambda a: {"expected": a[n] / a[d], "alternatives": [a[n] / a[d] * 100]})(num, den)
R["stock_invest.calculate_dividend_payout(dividend_per_share,shares)"] = lambda a: a["shares"] * a["dividend_per_share"]

# physics and the sciences (SI, constants as the descriptions give them)
for key in ["final_velocity(acceleration,initial_velocity,time)",
            "calculate_final_velocity(acceleration,initial_velocity,time)",
            "kinematics.final_velocity(acceleration,initial_velocity,time)"]:
    R[key] = lambda a: a["initial_velocity"] + arg(a, "acceleration", -9.81) * a["time"]
R["kinematics.calculate_final_speed(acceleration,initial_speed,rounding,time)"] = lambda a: round(
    a["initial_speed"] + a["acceleration"] * a["time"], arg(a, "rounding", 2))
for key in ["calculate_displacement(acceleration,initial_velocity,time)",
            "kinematics.distance_traveled(acceleration,initial_velocity,time)"]:
    R[key] = lambda a: a["initial_velocity"] * a["time"] + 0.5 * arg(a, "acceleration", 0) * a["time"] ** 2
R["kinematics.distance(acceleration,initial_velocity,time)"] = lambda a: (
    a["initial_velocity"] * a["time"] + 0.5 * arg(a, "acceleration", -9.81) * a["time"] ** 2)
R["kinematics.calculate_displacement(acceleration,initial_speed,rounding,time)"] = lambda a: round(
    a["initial_speed"] * a["time"] + 0.5 * a["acceleration"] * a["time"] ** 2, arg(a, "rounding", 2))
R["calculate_final_velocity(gravity,height,initial_velocity)"] = lambda a: math.sqrt(
    arg(a, "initial_velocity", 0) ** 2 + 2 * arg(a, "gravity", 9.81) * a["height"])
R["calculate_final_speed(gravity,height,initial_velocity)"] = lambda a: math.sqrt(
    arg(a, "initial_velocity", 0) ** 2 + 2 * arg(a, "gravity", 9.8) * a["height"])
R["kinematics.final_velocity_from_distance(acceleration,distance,initial_velocity)"] = lambda a: math.sqrt(
    arg(a, "initial_velocity", 0) ** 2 + 2 * a["acceleration"] * a["distance"])
R["kinematics.calculate_time(distance,velocity)"] = lambda a: a["distance"] / a["velocity"]
R["calculate_velocity(distance,duration,unit)"] = lambda a: (
    a["distance"] / a["duration"] if arg(a, "unit", "km/h") == "km/h" else None)
R["calculate_speed(distance,time,to_unit)"] = lambda a: a["distance"] / a["time"] * {
    "m/s": 1, "km/h": 3.6}[arg(a, "to_unit", "m/s")]
R["physics.calculate_force(acceleration,mass)"] = lambda a: a["mass"] * a["acceleration"]
R["calculate_density(mass,unit,volume)"] = lambda a: (
    a["mass"] / a["volume"] if arg(a, "unit", "kg/m³") in ("kg/m³", "kg/m^3", "kg/m3") else None)
R["calculate_density(country,land_area,population,year)"] = lambda a: a["population"] / a["land_area"]
R["calc_absolute_pressure(atm_pressure,gauge_pressure)"] = lambda a: arg(a, "atm_pressure", 1) + a["gauge_pressure"]
R["calculate_final_temperature(mass1,mass2,specific_heat_capacity,temperature1,temperature2)"] = lambda a: (
    (a["mass1"] * a["temperature1"] + a["mass2"] * a["temperature2"]) / (a["mass1"] + a["mass2"]))
R["calculate_final_temperature(quantity1,quantity2,temperature1,temperature2)"] = lambda a: (
    (a["quantity1"] * a["temperature1"] + a["quantity2"] * a["temperature2"]) / (a["quantity1"] + a["quantity2"]))
R["calculate_mass(molar_mass,quantity)"] = lambda a: a["quantity"] * a["molar_mass"]
R["biological.calc_biomass(efficiency,energy)"] = lambda a: a["energy"] * arg(a, "efficiency", 0.1)
R["biological.calc_energy(joules_per_mol,mols,substance)"] = lambda a: a["mols"] * arg(a, "joules_per_mol", 2800)
R["calculate_resonant_frequency(capacitance,inductance,round_off)"] = lambda a: round(
    1 / (2 * math.pi * math.sqrt(a["inductance"] * a["capacitance"])), arg(a, "round_off", 2))
R["calculate_electric_field(charge,distance,permitivity)"] = lambda a: (
    a["charge"] / (4 * math.pi * arg(a, "permitivity", 8.854e-12) * a["distance"] ** 2))
R["physics.electric_field(charge,distance)"] = lambda a: K * a["charge"] / a["distance"] ** 2
R["calculate_electric_field_strength(charge,distance,medium)"] = lambda a: (
    K * a["charge"] / a["distance"] ** 2 if arg(a, "medium", "vacuum") == "vacuum" else None)
R["calculate_magnetic_field_strength(current,distance,permeability)"] = lambda a: (
    arg(a, "permeability", 12.57e-7) * a["current"] / (2 * math.pi * a["distance"]))
R["magnetic_field.calculate(I,r)"] = lambda a: MU0 * a["I"] / (2 * math.pi * a["r"])
R["electromagnetism.biot_savart_law(current,distance,mu0)"] = lambda a: (
    arg(a, "mu0", 0.000001256) * a["current"] / (2 * math.pi * a["distance"]))
R["physics.magnetic_field(current,length,turnsPerMeter)"] = lambda a: MU0 * a["turnsPerMeter"] * a["current"]
R["capacitance_calculator.calculate(A,K,d)"] = lambda a: E0 * arg(a, "K", 1.0) * a["A"] / a["d"]
R["resistance_calculator.calculate(I,V)"] = lambda a: a["V"] / a["I"]
R["calculate_voltage_difference(charge,distance,electric_field)"] = lambda a: a["electric_field"] * a["distance"]
R["calculate_em_force(area,b_field,d_time)"] = lambda a: a["b_field"] * a["area"] / a["d_time"]
R["physics.wave_velocity(frequency,wavelength)"] = lambda a: a["frequency"] * a["wavelength"]
R["calculate_cell_density(calibration_factor,dilution,optical_density)"] = lambda a: (
    a["optical_density"] * a["dilution"] * arg(a, "calibration_factor", 1e9))

# health
R["calculate_BMI(height_m,weight_kg)"] = lambda a: a["weight_kg"] / a["height_m"] ** 2
R["calculate_bmi(height,unit,weight)"] = lambda a: (
    a["weight"] / (a["height"] / 100) ** 2 if arg(a, "unit", "metric") == "metric" else 703 * a["weight"] / a["height"] ** 2)
R["calculate_bmi(height,system,weight)"] = lambda a: (
    a["weight"] / (a["height"] / 100) ** 2 if arg(a, "system", "metric") == "metric" else None)
R["calculate_bmi(height,weight)"] = lambda a: a["weight"] / (a["height"] * 0.3048) ** 2

# unit conversion (an independent factor table; currencies have no true rate offline and are not judged)
for key in ["unit_conversion.convert(from_unit,to_unit,value)", "unit_conversion(from_unit,to_unit,value)"]:
    R[key] = lambda a: convert(a["value"], a["from_unit"], a["to_unit"])
R["cooking_conversion.convert(from_unit,item,quantity,to_unit)"] = lambda a: convert(
    a["quantity"], a["from_unit"], a["to_unit"])
R["recipe.unit_conversion(from_unit,precision,to_unit,value)"] = lambda a: round(
    convert(a["value"], a["from_unit"], a["to_unit"]), arg(a, "precision", 1))
R["temperature_converter.convert(from_unit,round_to,temperature,to_unit)"] = lambda a: unrounded_then(
    convert(a["temperature"], a["from_unit"], a["to_unit"]), arg(a, "round_to"))


def answer(line):
    request = json.loads(line)
    formula = R.get(request["key"])
    if formula is None:
        return {"skip": "not a computation with one answer"}
    try:
        value = formula(request["args"])
    except LookupError as error:
        return {"skip": str(error)}
    except (KeyError, TypeError, ValueError, ZeroDivisionError, OverflowError) as error:
        return {"skip": f"the call's arguments do not fit the formula: {error}"}
    if value is None:
        return {"skip": "this call's options leave the answer open"}
    return value if isinstance(value, dict) and "expected" in value else {"expected": value}


for line in sys.stdin:
    if line.strip():
        print(json.dumps(answer(line)), flush=True)
