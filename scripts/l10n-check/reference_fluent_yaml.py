"""Reference readers for Fluent (.ftl) and Rails/Symfony YAML, over the
formats' own parsers from PyPI: fluent.syntax (Mozilla's parser of the
Fluent syntax) and PyYAML. Each returns (key, variant, text) triples in
document order and raises ReadError where the file is not its format.

The values are the library's (Protocol/localization.md): for Fluent, each
message's, term's and attribute's pattern, then the variants of its select
expressions (variant "select:KEY", nested ones joined with "/"); a
pattern's text is its text elements, its string literal placeables as their
values, and every other placeable as its source text.
"""

from reference_readers import ReadError, decode_file


def read_fluent(data):
    from fluent.syntax import FluentParser, ast

    source = decode_file(data)
    resource = FluentParser(with_spans=True).parse(source)
    values = []

    def pattern_text(pattern):
        text = []
        for element in pattern.elements:
            if isinstance(element, ast.TextElement):
                text.append(element.value)
            elif isinstance(element.expression, ast.StringLiteral):
                text.append(element.expression.parse()["value"])
            else:
                text.append(source[element.span.start:element.span.end])
        return "".join(text)

    def selects(node):
        """The select expressions inside a node, in document order (not those inside their variants)."""
        if isinstance(node, ast.SelectExpression):
            yield from selects(node.selector)
            yield node
            return
        if isinstance(node, ast.Pattern):
            return
        for name in vars(node):
            child = getattr(node, name)
            for item in child if isinstance(child, list) else [child]:
                if isinstance(item, ast.SyntaxNode) and not isinstance(item, ast.Span):
                    yield from selects(item)

    def add(pattern, key, variant):
        values.append((key, variant, pattern_text(pattern)))
        for element in pattern.elements:
            if not isinstance(element, ast.Placeable):
                continue
            for select in selects(element):
                for branch in select.variants:
                    name = "select:" + (branch.key.name if isinstance(branch.key, ast.Identifier) else branch.key.value)
                    add(branch.value, key, name if variant is None else variant + "/" + name)

    for entry in resource.body:
        if isinstance(entry, ast.Junk):
            annotation = entry.annotations[0] if entry.annotations else None
            raise ReadError("junk at %d: %s" % (entry.span.start, annotation.message if annotation else ""))
        if isinstance(entry, (ast.Message, ast.Term)):
            key = ("-" if isinstance(entry, ast.Term) else "") + entry.id.name
            if entry.value is not None:
                add(entry.value, key, None)
            for attribute in entry.attributes:
                add(attribute.value, key + "." + attribute.id.name, None)
    return values


def read_yaml(data):
    """Every string scalar, keyed by its mapping keys' path (a top-level
    locale key included: the library reports it as the locale and the
    comparison adds it back), sequence items as variant item:N."""
    import yaml

    try:
        root = yaml.compose(decode_file(data), Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        raise ReadError(str(error).replace("\n", " "))
    values = []
    string = "tag:yaml.org,2002:str"

    def walk(node, path, variant):
        if isinstance(node, yaml.ScalarNode):
            if node.tag == string:
                values.append((".".join(path), variant, node.value))
        elif isinstance(node, yaml.SequenceNode):
            for number, item in enumerate(node.value):
                name = "item:%d" % number
                walk(item, path, name if variant is None else variant + "/" + name)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                walk(value, path + [key.value], variant)

    if root is not None:
        walk(root, [], None)
    return values


READERS = {"fluent": read_fluent, "yaml": read_yaml}
