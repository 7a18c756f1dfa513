"""moto's DynamoDB expression engine at DynamoDB's cost: what `make dev`'s store patches, and why.

Every billed call sends the same five update expressions; moto parsed each from its text, deep-copied
the tree, ran ten validation passes over it whose class tests go through `ABCMeta` in Python, and
lexed every condition expression again. That was over half of the store's CPU in
`bench/local_default.py`. The patches keep moto's behaviour (its parser, validators and executor still
run, on the same trees) and drop only repeated work: `tests/integration/test_moto_expressions.py`
compares answers with and without them, and the whole test suite runs on them (`tests/conftest.py`'s
`aws` fixture), as `make dev` does. Local and test use only.
"""

from __future__ import annotations

import functools
import pickle
from collections import deque
from typing import Any

from moto.core import responses, utils
from moto.dynamodb.comparisons import ConditionExpressionParser
from moto.dynamodb.parsing import validators
from moto.dynamodb.parsing.ast_nodes import DepthFirstTraverser, Expression, Node, UpdateExpressionFunction
from moto.dynamodb.parsing.expressions import UpdateExpressionParser

_NESTING = (Expression, UpdateExpressionFunction)


def at_dynamodb_cost() -> None:
    """Patch moto in this process (once):

    - each UpdateExpression is parsed once per text (moto parsed it twice per request); the
      validator still gets its own copy of the tree to rewrite;
    - that copy is a pickle round trip, which rebuilds the same tree of plain objects several
      times faster than `copy.deepcopy` walks it;
    - each condition expression is split into tokens once per text (the tokens are immutable; the
      parse that follows, which reads the names and values, still runs per request);
    - the traversals and `find_clauses` ask each class test once (`_traverse`, `_find_clauses`);
    - the handler's method names are listed once per class, not through `inspect` per request.
    """
    if getattr(UpdateExpressionParser.make, "_cached", False):
        return
    parse = UpdateExpressionParser.make

    @functools.lru_cache(maxsize=512)
    def make(expression: str) -> Any:
        return parse(expression)

    make._cached = True  # type: ignore[attr-defined]
    lex = ConditionExpressionParser._lex_condition_expression

    @functools.lru_cache(maxsize=512)
    def tokens(expression: str) -> tuple[Any, ...]:
        return tuple(lex(ConditionExpressionParser(expression, None, None)))

    ConditionExpressionParser._lex_condition_expression = lambda self: deque(tokens(self.condition_expression))  # type: ignore[method-assign]
    DepthFirstTraverser.traverse_node_recursively = _traverse  # type: ignore[method-assign]
    Node.find_clauses = _find_clauses  # type: ignore[method-assign]
    UpdateExpressionParser.make = staticmethod(make)  # type: ignore[method-assign,assignment]
    validators.deepcopy = lambda tree: pickle.loads(pickle.dumps(tree, pickle.HIGHEST_PROTOCOL))  # type: ignore[attr-defined]
    responses.method_names_from_class = functools.lru_cache(maxsize=128)(utils.method_names_from_class)  # type: ignore[attr-defined]


_SUBCLASS: dict[tuple[type, Any], bool] = {}
"""`issubclass` answers by (class, classes): moto's expression nodes are abstract base classes, whose
`isinstance` runs `ABCMeta`'s check in Python, and nothing registers virtual subclasses of them."""
_PROCESSED: dict[type, tuple[type, ...]] = {}
"""The node classes each kind of traverser processes (the keys of its processing map)."""


def _is(kind: type, classes: Any) -> bool:
    answer = _SUBCLASS.get((kind, classes))
    if answer is None:
        answer = _SUBCLASS[kind, classes] = issubclass(kind, classes)
    return answer


def _traverse(self: Any, node: Any, child_id: int = -1) -> Any:
    """moto's `DepthFirstTraverser.traverse_node_recursively`, each class test asked once.

    Ten traversals of each update expression spent a sixth of the store's time in `ABCMeta`'s checks.
    """
    kind = type(node)
    is_node = _SUBCLASS.get((kind, Node))
    if is_node is None:
        is_node = _is(kind, Node)
    if not is_node:
        return node
    parent_node = node.parent
    if node.children is not None:
        for i, child_node in enumerate(node.children):
            self.pre_processing_of_child(node, i)
            self.traverse_node_recursively(child_node, i)
    processed = _PROCESSED.get(type(self))
    if processed is None:
        processed = _PROCESSED[type(self)] = self.nodes_to_be_processed()
    hit = _SUBCLASS.get((kind, processed))
    if hit is None:
        hit = _is(kind, processed)
    if hit:
        node = self.process(node)
        node.parent = parent_node
        if parent_node:
            parent_node.children[child_id] = node
    return node


def _find_clauses(self: Any, clause_types: list[type]) -> list[Any]:
    """moto's `Node.find_clauses`, each class test asked once."""
    clauses = []
    for child in self.children or []:
        kind = type(child)
        if kind in clause_types:
            clauses.append(child)
        else:
            nested = _SUBCLASS.get((kind, _NESTING))
            if nested is None:
                nested = _is(kind, _NESTING)
            if nested:
                clauses.extend(child.find_clauses(clause_types))
    return clauses
