/// How a method pages, resolved to member chains.
extension FamilyResolver {
    // MARK: - Paging

    mutating func resolvePaging(_ node: PagingNode, method: IRMethod, table: IRTypeTable) -> IRPaging? {
        guard let request = method.request.flatMap({ table[$0] }), let response = method.response.flatMap({ table[$0] })
        else {
            diagnostics.error(
                "\"paging\" on a method without both a request and a response, expected both", at: node.location)
            return nil
        }
        var resolver = PointerResolver(table: table)
        defer { diagnostics.append(contentsOf: resolver.diagnostics) }
        guard let cursor = resolver.resolve(node.cursor, from: request, allowFirst: false),
            let items = resolver.resolve(node.items, from: response, allowFirst: false)
        else { return nil }
        guard case .property(let cursorProperty) = cursor.last, cursorProperty.isOptional,
            table.isScalarLike(cursorProperty.type)
        else {
            diagnostics.error(
                "\"cursor\" points to \(resolver.describeEnd(cursor)), expected an optional scalar property of the request",
                at: node.cursor.location, pointer: node.cursor.pointer)
            return nil
        }
        guard case .property(let itemsProperty) = items.last, case .array(let element) = itemsProperty.type,
            let itemType = table.namedType(element)
        else {
            diagnostics.error(
                "\"items\" points to \(resolver.describeEnd(items)), expected an array of objects in the response",
                at: node.items.location, pointer: node.items.pointer)
            return nil
        }
        guard let itemCursor = resolver.resolve(node.itemCursor, from: itemType, allowFirst: false) else { return nil }
        guard case .property(let itemCursorProperty) = itemCursor.last,
            itemCursorProperty.type.swiftType == cursorProperty.type.swiftType
        else {
            diagnostics.error(
                "\"itemCursor\" points to \(resolver.describeEnd(itemCursor)), expected a value of the cursor's type \(cursorProperty.type.swiftType)",
                at: node.itemCursor.location, pointer: node.itemCursor.pointer)
            return nil
        }
        var more: [IRPathStep]?
        if let moreNode = node.more {
            guard let path = resolver.resolve(moreNode, from: response, allowFirst: false) else { return nil }
            guard case .property(let moreProperty) = path.last, case .scalar(.bool, _) = moreProperty.type else {
                diagnostics.error(
                    "\"more\" points to \(resolver.describeEnd(path)), expected a boolean in the response",
                    at: moreNode.location, pointer: moreNode.pointer)
                return nil
            }
            more = path
        }
        return IRPaging(cursorPath: cursor, itemsPath: items, itemCursorPath: itemCursor, morePath: more)
    }
}
